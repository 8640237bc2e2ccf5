/**
 * Cart metafields: same shape as the catalogue's, resource_type 'cart' and the cart id as
 * resource_id.
 */
import type { DatabaseSync } from 'node:sqlite';
import {
  collection,
  json,
  noContent,
  pagination,
  paging,
  single,
  v3Error,
  type Reply,
} from '../http.ts';
import { assertValid, objectBody, str, type Errors, type Obj } from '../validate.ts';
import type { RouteContext } from './context.ts';
import { type CartRecord, timestamp, readCart, cartNotFound } from './cart-records.ts';

// Each belongs to the app (API account) that wrote it, `owner_client_id` (catalog.v3.yml):
// `app_only` is private to that app (another app neither sees nor finds it), `read` is visible to
// other apps, `write` (and `write_and_sf_access`) also writable by them; namespace, key and
// permission_set change only by their owner (403 otherwise); namespace + key are unique per app
// and resource (409).

const PERMISSION_SETS = [
  'app_only',
  'read',
  'write',
  'read_and_sf_access',
  'write_and_sf_access',
] as const;

const WRITABLE_BY_OTHERS: ReadonlySet<unknown> = new Set(['write', 'write_and_sf_access']);

interface MetafieldRow {
  id: number;
  doc: string;
}

type MetafieldDoc = Record<string, unknown>;

const ownerOf = (doc: MetafieldDoc) =>
  typeof doc.owner_client_id === 'string' ? doc.owner_client_id : '';

/** Whether the app sees the metafield: its own, or another app's that is not `app_only`. */
const visibleTo = (doc: MetafieldDoc, app: string) =>
  ownerOf(doc) === app || doc.permission_set !== 'app_only';

function metafieldInput(body: Obj, errors: Errors, partial: boolean): Obj {
  const key = str(body, 'key', errors, '', { required: !partial, min: 1, max: 64 });
  const value = str(body, 'value', errors, '', { required: !partial, min: 1, max: 65535 });
  const namespace = str(body, 'namespace', errors, '', { required: !partial, min: 1, max: 64 });
  const permission = str(body, 'permission_set', errors, '', { required: !partial });
  const description = str(body, 'description', errors, '', { max: 255 });
  if (permission !== undefined && !(PERMISSION_SETS as readonly string[]).includes(permission)) {
    errors.permission_set = `permission_set must be one of ${PERMISSION_SETS.join(', ')}`;
  }
  const out: Obj = {};
  if (key !== undefined) out.key = key;
  if (value !== undefined) out.value = value;
  if (namespace !== undefined) out.namespace = namespace;
  if (permission !== undefined) out.permission_set = permission;
  if (description !== undefined) out.description = description;
  return out;
}

/** The cart's metafield docs in id order (every app's). */
function cartMetafieldDocs(db: DatabaseSync, cartId: string): MetafieldDoc[] {
  const rows = db
    .prepare('SELECT id, doc FROM cart_metafields WHERE cart_id = ? ORDER BY id')
    .all(cartId) as unknown as MetafieldRow[];
  return rows.map((r) => JSON.parse(r.doc) as MetafieldDoc);
}

function duplicateMetafield(
  db: DatabaseSync,
  cartId: string,
  app: string,
  namespace: unknown,
  key: unknown,
  except = 0,
): boolean {
  return cartMetafieldDocs(db, cartId).some(
    (doc) =>
      ownerOf(doc) === app &&
      doc.namespace === namespace &&
      doc.key === key &&
      Number(doc.id) !== except,
  );
}

function duplicateReply(): Reply {
  return json(409, {
    status: 409,
    title: 'A metafield with the same namespace and key already exists on this resource.',
    type: 'https://developer.bigcommerce.com/api-docs/getting-started/api-status-codes',
    errors: { key: 'duplicate namespace and key' },
  });
}

function forbiddenReply(title: string): Reply {
  return json(403, {
    status: 403,
    title,
    type: 'https://developer.bigcommerce.com/api-docs/getting-started/api-status-codes',
  });
}

export function listMetafields(ctx: RouteContext): Reply {
  const cart = readCart(ctx.db, ctx.params.cartId ?? '');
  if (!cart) return cartNotFound();
  const namespace = ctx.query.string('namespace');
  const key = ctx.query.string('key');
  const paged = paging(ctx.query, 50, 250);
  const docs = cartMetafieldDocs(ctx.db, cart.id).filter(
    (doc) =>
      visibleTo(doc, ctx.app) &&
      (namespace === undefined || doc.namespace === namespace) &&
      (key === undefined || doc.key === key),
  );
  const page = docs.slice(paged.offset, paged.offset + paged.limit);
  return collection(
    page.map((doc) => JSON.stringify(doc)),
    { pagination: pagination(ctx.query, paged, docs.length, page.length) },
  );
}

/** POST /v3/carts/{id}/metafields: 200 like the catalogue's metafields; 409 on a repeated namespace + key of this app. */
export function createMetafield(ctx: RouteContext): Reply {
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const input = metafieldInput(body, errors, false);
  assertValid(errors);
  const cart = readCart(ctx.db, ctx.params.cartId ?? '');
  if (!cart) return cartNotFound();
  if (duplicateMetafield(ctx.db, cart.id, ctx.app, input.namespace, input.key)) {
    return duplicateReply();
  }
  const last = ctx.db.prepare('SELECT MAX(id) AS id FROM cart_metafields').get() as {
    id: number | null;
  };
  const id = (last.id ?? 0) + 1;
  const now = timestamp();
  const doc = {
    id,
    key: input.key,
    value: input.value,
    namespace: input.namespace,
    permission_set: input.permission_set,
    resource_type: 'cart',
    resource_id: cart.id,
    description: input.description ?? '',
    date_created: now,
    date_modified: now,
    owner_client_id: ctx.app,
  };
  ctx.db
    .prepare('INSERT INTO cart_metafields VALUES (?, ?, ?, ?, ?)')
    .run(id, cart.id, String(input.namespace), String(input.key), JSON.stringify(doc));
  return single(200, doc);
}

/** The metafield of the path as the requesting app sees it (another app's app_only: 404). */
function findMetafield(ctx: RouteContext): { cart: CartRecord; doc: MetafieldDoc } | Reply {
  const cart = readCart(ctx.db, ctx.params.cartId ?? '');
  if (!cart) return cartNotFound();
  const row = ctx.db
    .prepare('SELECT doc FROM cart_metafields WHERE id = ? AND cart_id = ?')
    .get(Number(ctx.params.metafieldId), cart.id) as { doc: string } | undefined;
  const doc = row ? (JSON.parse(row.doc) as MetafieldDoc) : undefined;
  if (!doc || !visibleTo(doc, ctx.app)) return v3Error(404, 'Metafield not found');
  return { cart, doc };
}

export function getMetafield(ctx: RouteContext): Reply {
  const found = findMetafield(ctx);
  return 'status' in found ? found : single(200, found.doc);
}

export function updateMetafield(ctx: RouteContext): Reply {
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const input = metafieldInput(body, errors, true);
  assertValid(errors);
  const found = findMetafield(ctx);
  if ('status' in found) return found;
  if (ownerOf(found.doc) !== ctx.app) {
    const changesOwnerFields = (['namespace', 'key', 'permission_set'] as const).some(
      (field) => input[field] !== undefined && input[field] !== found.doc[field],
    );
    if (changesOwnerFields) {
      return forbiddenReply(
        'namespace, key and permission_set can only be modified by the app that created the metafield.',
      );
    }
    if (!WRITABLE_BY_OTHERS.has(found.doc.permission_set)) {
      return forbiddenReply('This metafield is not writable by other apps.');
    }
  }
  const doc: MetafieldDoc = { ...found.doc, ...input, date_modified: timestamp() };
  if (
    duplicateMetafield(ctx.db, found.cart.id, ownerOf(doc), doc.namespace, doc.key, Number(doc.id))
  )
    return duplicateReply();
  ctx.db
    .prepare('UPDATE cart_metafields SET namespace = ?, key = ?, doc = ? WHERE id = ?')
    .run(String(doc.namespace), String(doc.key), JSON.stringify(doc), Number(doc.id));
  return single(200, doc);
}

export function deleteMetafield(ctx: RouteContext): Reply {
  const found = findMetafield(ctx);
  if ('status' in found) return found;
  if (ownerOf(found.doc) !== ctx.app && !WRITABLE_BY_OTHERS.has(found.doc.permission_set)) {
    return forbiddenReply('This metafield is not writable by other apps.');
  }
  ctx.db.prepare('DELETE FROM cart_metafields WHERE id = ?').run(Number(found.doc.id));
  return noContent();
}
