import { t, type MessageKey } from '../i18n/index.ts';
import { ORDER_STATUS_NAMES } from './order-status-names.ts';

export type OrderStatusColor = 'success' | 'danger' | 'highlight';

export interface OrderStatus {
  id: number;
  /** BigCommerce name, also the message key of its French label. */
  name: MessageKey;
  color: OrderStatusColor;
}

const DANGER: readonly string[] = ['Refunded', 'Cancelled', 'Declined', 'Disputed'];

/** spec §4 display colours: success for Completed; danger for Refunded, Cancelled, Declined, Disputed; highlight otherwise. */
export function orderStatusColor(name: string): OrderStatusColor {
  if (name === 'Completed') return 'success';
  return DANGER.includes(name) ? 'danger' : 'highlight';
}

export const ORDER_STATUSES: readonly OrderStatus[] = ORDER_STATUS_NAMES.map((name, id) => ({
  id,
  name,
  color: orderStatusColor(name),
}));

/** The status with this BigCommerce id, or undefined for an unknown id. */
export function orderStatus(id: number): OrderStatus | undefined {
  return ORDER_STATUSES[id];
}

/** French label of a status id; an unknown id shows BigCommerce's own `name` for it, as is. */
export function orderStatusLabel(id: number, name: string): string {
  const status = orderStatus(id);
  return status ? t(status.name) : name;
}
