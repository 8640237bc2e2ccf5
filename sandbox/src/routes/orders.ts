/**
 * v2 orders (orders.v2.oas2.yml): list with filters, one order, its notes updated (PUT), and
 * its products, shipping addresses and shipments. Bare arrays and objects, money as decimal
 * strings ('129.0000'), dates in RFC 2822; an empty list answers 204 like every v2 list.
 */
import type { SQLInputValue } from 'node:sqlite';
import { QueryError, v2Error, type Reply } from '../http.ts';
import { parseDate, rfc2822 } from '../model.ts';
import type { RouteContext } from './context.ts';

interface OrderRow {
  id: number;
  doc: string;
  products: string;
  shipping_addresses: string;
  shipments: string;
}

type Sort =
  | 'id'
  | 'customer_id'
  | 'date_created'
  | 'date_modified'
  | 'status_id'
  | 'channel_id'
  | 'external_id';
const SORT_COLUMNS: Record<Sort, string> = {
  id: 'id',
  customer_id: 'customer_id',
  date_created: 'date_created',
  date_modified: 'date_modified',
  status_id: 'status_id',
  channel_id: 'id',
  external_id: 'id',
};

function resources(
  ctx: RouteContext,
  id: number,
): Record<string, { url: string; resource: string }> {
  const base = `${ctx.origin}/stores/${ctx.storeHash}/v2/orders/${id}`;
  return {
    products: { url: `${base}/products`, resource: `/orders/${id}/products` },
    shipping_addresses: {
      url: `${base}/shipping_addresses`,
      resource: `/orders/${id}/shipping_addresses`,
    },
    coupons: { url: `${base}/coupons`, resource: `/orders/${id}/coupons` },
  };
}

function orderJson(ctx: RouteContext, row: OrderRow): string {
  const doc = JSON.parse(row.doc) as Record<string, unknown>;
  return JSON.stringify({ ...doc, ...resources(ctx, row.id) });
}

function bounded(ctx: RouteContext): { page: number; limit: number } {
  const page = ctx.query.int('page') ?? 1;
  const limit = ctx.query.int('limit') ?? 50;
  if (page < 1) throw new QueryError('page', 'The field page is invalid.');
  if (limit < 1 || limit > 250) throw new QueryError('limit', 'The field limit is invalid.');
  return { page, limit };
}

/**
 * GET /v2/orders: min_id, max_id, min_total, max_total, customer_id, email, status_id, cart_id,
 * payment_method, min/max_date_created, min/max_date_modified, is_deleted, channel_id,
 * sort (`field` or `field:asc|desc`), page, limit (max 250). Default order: id ascending.
 */
export function listOrders(ctx: RouteContext): Reply {
  const { query } = ctx;
  const clauses: string[] = [];
  const params: SQLInputValue[] = [];
  const add = (clause: string, value: SQLInputValue | undefined): void => {
    if (value === undefined) return;
    clauses.push(clause);
    params.push(value);
  };
  add('id >= ?', query.int('min_id'));
  add('id <= ?', query.int('max_id'));
  add('total >= ?', query.number('min_total'));
  add('total <= ?', query.number('max_total'));
  add('customer_id = ?', query.int('customer_id'));
  add('email = ?', query.string('email')?.toLowerCase());
  add('status_id = ?', query.int('status_id'));
  add('cart_id = ?', query.string('cart_id'));
  add('payment_method = ?', query.string('payment_method'));
  for (const [name, column, op] of [
    ['min_date_created', 'date_created', '>='],
    ['max_date_created', 'date_created', '<='],
    ['min_date_modified', 'date_modified', '>='],
    ['max_date_modified', 'date_modified', '<='],
  ] as const) {
    const value = query.string(name);
    if (value === undefined) continue;
    const date = parseDate(value);
    if (!date) throw new QueryError(name, `The field ${name} is invalid.`);
    add(`${column} ${op} ?`, date.toISOString());
  }
  const channel = query.int('channel_id');
  if (channel !== undefined && channel !== 1) clauses.push('0');
  if (query.bool('is_deleted') === true) clauses.push('0');
  let order = 'id ASC';
  const sort = query.string('sort');
  if (sort !== undefined) {
    const [field, direction = 'asc'] = sort.split(':');
    const column = SORT_COLUMNS[field as Sort] as string | undefined;
    if (!column || !['asc', 'desc'].includes(direction.toLowerCase())) {
      throw new QueryError('sort', 'The field sort is invalid.');
    }
    order = `${column} ${direction.toUpperCase()}, id ${direction.toUpperCase()}`;
  }
  const { page, limit } = bounded(ctx);
  const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
  const rows = ctx.db
    .prepare(`SELECT id, doc FROM orders ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .all(...params, limit, (page - 1) * limit) as unknown as OrderRow[];
  if (rows.length === 0) return { status: 204, body: '' };
  return { status: 200, body: `[${rows.map((r) => orderJson(ctx, r)).join(',')}]` };
}

function findOrder(ctx: RouteContext): OrderRow | undefined {
  return ctx.db.prepare('SELECT * FROM orders WHERE id = ?').get(Number(ctx.params.id)) as
    OrderRow | undefined;
}

const NOT_FOUND = 'The requested resource was not found.';

export function getOrder(ctx: RouteContext): Reply {
  const row = findOrder(ctx);
  return row ? { status: 200, body: orderJson(ctx, row) } : v2Error(404, NOT_FOUND);
}

/** A sub-resource list: paged, 204 when empty. */
function subList(
  ctx: RouteContext,
  column: 'products' | 'shipping_addresses' | 'shipments',
): Reply {
  const row = findOrder(ctx);
  if (!row) return v2Error(404, NOT_FOUND);
  const { page, limit } = bounded(ctx);
  let items = (JSON.parse(row[column]) as Record<string, unknown>[]).slice(
    (page - 1) * limit,
    page * limit,
  );
  if (column === 'shipping_addresses') {
    const base = `${ctx.origin}/stores/${ctx.storeHash}/v2/orders/${row.id}/shipping_addresses`;
    items = items.map((a) => ({
      ...a,
      shipping_quotes: {
        url: `${base}/${String(a.id)}/shipping_quotes`,
        resource: `/orders/${row.id}/shipping_addresses/${String(a.id)}/shipping_quotes`,
      },
    }));
  }
  if (items.length === 0) return { status: 204, body: '' };
  return { status: 200, body: JSON.stringify(items) };
}

export function listOrderProducts(ctx: RouteContext): Reply {
  return subList(ctx, 'products');
}

export function listShippingAddresses(ctx: RouteContext): Reply {
  return subList(ctx, 'shipping_addresses');
}

export function listShipments(ctx: RouteContext): Reply {
  return subList(ctx, 'shipments');
}

/** The fields of `PUT /v2/orders/{id}` the sandbox emulates: the order's two notes. */
const NOTES = ['staff_notes', 'customer_message'] as const;

/**
 * PUT /v2/orders/{id} (orders.v2.oas2.yml "Update an Order"), for its notes: `staff_notes`
 * (private to the store's staff) and `customer_message`, strings of at most 65,535 characters;
 * any other field answers 400 (the sandbox does not emulate it). The order as GET answers it.
 */
export function updateOrder(ctx: RouteContext): Reply {
  const row = findOrder(ctx);
  if (!row) return v2Error(404, NOT_FOUND);
  const body = ctx.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return v2Error(400, 'The request body must be a JSON object.');
  }
  const fields = body as Record<string, unknown>;
  const other = Object.keys(fields).find((key) => !(NOTES as readonly string[]).includes(key));
  if (other !== undefined) return v2Error(400, `The field '${other}' is not supported.`);
  const doc = JSON.parse(row.doc) as Record<string, unknown>;
  for (const key of NOTES) {
    const value = fields[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > 65_535) {
      return v2Error(400, `The field '${key}' is invalid.`);
    }
    doc[key] = value;
  }
  const modified = new Date();
  doc.date_modified = rfc2822(modified);
  ctx.db
    .prepare('UPDATE orders SET doc = ?, date_modified = ? WHERE id = ?')
    .run(JSON.stringify(doc), modified.toISOString(), row.id);
  return { status: 200, body: orderJson(ctx, { ...row, doc: JSON.stringify(doc) }) };
}
