/**
 * spec §4: BigCommerce's order statuses 0 to 14, in id order: the one table of them. Each name
 * is also the message key of its French label (`order-status.ts`, colours and labels). No
 * i18n here: the sandbox (`sandbox/src/model.ts`) imports the same table.
 */
import type { MessageKey } from '../i18n/index.ts';

export const ORDER_STATUS_NAMES = [
  'Incomplete',
  'Pending',
  'Shipped',
  'Partially Shipped',
  'Refunded',
  'Cancelled',
  'Declined',
  'Awaiting Payment',
  'Awaiting Pickup',
  'Awaiting Shipment',
  'Completed',
  'Awaiting Fulfillment',
  'Manual Verification Required',
  'Disputed',
  'Partially Refunded',
] as const satisfies readonly MessageKey[];
