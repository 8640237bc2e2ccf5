import { describe, expect, test } from 'vitest';
import {
  ORDER_STATUSES,
  orderStatus,
  orderStatusLabel,
} from '../../src/lib/commerce/order-status.ts';

describe('order statuses (spec §4)', () => {
  test.each([
    [0, 'Incomplete', 'Incomplète', 'highlight'],
    [1, 'Pending', 'En attente', 'highlight'],
    [2, 'Shipped', 'Expédiée', 'highlight'],
    [3, 'Partially Shipped', 'Partiellement expédiée', 'highlight'],
    [4, 'Refunded', 'Remboursée', 'danger'],
    [5, 'Cancelled', 'Annulée', 'danger'],
    [6, 'Declined', 'Refusée', 'danger'],
    [7, 'Awaiting Payment', 'En attente de paiement', 'highlight'],
    [8, 'Awaiting Pickup', 'En attente de retrait', 'highlight'],
    [9, 'Awaiting Shipment', "En attente d'expédition", 'highlight'],
    [10, 'Completed', 'Terminée', 'success'],
    [11, 'Awaiting Fulfillment', 'En cours de préparation', 'highlight'],
    [12, 'Manual Verification Required', 'Vérification manuelle requise', 'highlight'],
    [13, 'Disputed', 'Litige en cours', 'danger'],
    [14, 'Partially Refunded', 'Partiellement remboursée', 'highlight'],
  ])('%i %s → %s, %s', (id, name, label, color) => {
    expect(orderStatus(id)).toEqual({ id, name, color });
    expect(orderStatusLabel(id, name)).toBe(label);
  });

  test('15 statuses', () => {
    expect(ORDER_STATUSES).toHaveLength(15);
  });

  test.each([
    ['unknown id', 15],
    ['negative id', -1],
  ])('%s', (_case, id) => {
    expect(orderStatus(id)).toBeUndefined();
    expect(orderStatusLabel(id, 'Custom Status')).toBe('Custom Status');
  });
});
