/**
 * BigCommerce store webhooks (webhooks.v3.yml): `/v3/hooks` create, list, read,
 * update, delete, and the delivery of store events to the active hooks whose scope matches
 * (`store/product/*` matches `store/product/updated`; `store/*` everything), with each hook's
 * custom `headers`. Payload as BigCommerce sends it: `{ scope, store_id, data: { type, id },
 * hash, created_at, producer: 'stores/{hash}' }`. Unlike BigCommerce (https on port 443 only),
 * the sandbox accepts http destinations, so tests and `npm start` can receive them locally.
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { json, single, v3Error, type Reply } from '../http.ts';
import { storeInformation } from '../seed/content.ts';
import { assertValid, bool, objectBody, str, type Errors, type Obj } from '../validate.ts';
import type { RouteContext, SandboxConfig } from './context.ts';

export interface HookRecord {
  id: number;
  client_id: string;
  store_hash: string;
  scope: string;
  destination: string;
  is_active: boolean;
  events_history_enabled: boolean;
  headers: Record<string, string>;
  created_at: number;
  updated_at: number;
}

const SCOPE = /^store\/(\*|[a-z_]+(\/[a-zA-Z_]+)*(\/\*)?)$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,256}$/;
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'host',
  'transfer-encoding',
  'connection',
]);

function seconds(): number {
  return Math.floor(Date.now() / 1000);
}

function readHeaders(body: Obj, errors: Errors): Record<string, string> | undefined {
  const raw = body.headers;
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    errors.headers = 'headers must be an object of strings';
    return undefined;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw as Obj)) {
    if (
      !HEADER_NAME.test(name) ||
      RESERVED_HEADERS.has(name.toLowerCase()) ||
      typeof value !== 'string' ||
      value.length > 1000 ||
      /[\r\n\0]/.test(value)
    ) {
      errors[`headers.${name}`] = 'must be a header name and a string value without line breaks';
      continue;
    }
    headers[name] = value;
  }
  return headers;
}

function readDestination(body: Obj, errors: Errors, required: boolean): string | undefined {
  const destination = str(body, 'destination', errors, '', { required, max: 2048 });
  if (destination === undefined) return undefined;
  try {
    const url = new URL(destination);
    if (
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      url.username === '' &&
      url.password === ''
    ) {
      return destination;
    }
  } catch {
    // Reported below.
  }
  errors.destination = 'destination must be an absolute http(s) URL';
  return undefined;
}

function readScope(body: Obj, errors: Errors, required: boolean): string | undefined {
  const scope = str(body, 'scope', errors, '', { required, max: 255 });
  if (scope !== undefined && !SCOPE.test(scope)) {
    errors.scope = 'scope must look like store/product/updated or store/product/*';
    return undefined;
  }
  return scope;
}

function loadHook(db: DatabaseSync, id: number): HookRecord | undefined {
  const row = db.prepare('SELECT doc FROM hooks WHERE id = ?').get(id) as
    { doc: string } | undefined;
  return row ? (JSON.parse(row.doc) as HookRecord) : undefined;
}

function allHooks(db: DatabaseSync): HookRecord[] {
  return (db.prepare('SELECT doc FROM hooks ORDER BY id').all() as { doc: string }[]).map(
    (r) => JSON.parse(r.doc) as HookRecord,
  );
}

export function createHook(ctx: RouteContext): Reply {
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const scope = readScope(body, errors, true);
  const destination = readDestination(body, errors, true);
  const isActive = bool(body, 'is_active', errors);
  const history = bool(body, 'events_history_enabled', errors);
  const headers = readHeaders(body, errors);
  assertValid(errors, 'JSON data is missing or invalid');
  if (allHooks(ctx.db).some((h) => h.scope === scope && h.destination === destination)) {
    return v3Error(422, 'A webhook with this scope and destination already exists.', {
      scope: 'duplicate scope and destination',
    });
  }
  const now = seconds();
  const id = (
    ctx.db.prepare('SELECT COALESCE(MAX(id), 18048286) + 1 AS n FROM hooks').get() as { n: number }
  ).n;
  const hook: HookRecord = {
    id,
    client_id: ctx.config.clientId,
    store_hash: ctx.storeHash,
    scope: scope ?? '',
    destination: destination ?? '',
    is_active: isActive ?? true,
    events_history_enabled: history ?? false,
    headers: headers ?? {},
    created_at: now,
    updated_at: now,
  };
  ctx.db.prepare('INSERT INTO hooks VALUES (?, ?)').run(id, JSON.stringify(hook));
  return single(200, hook);
}

export function listHooks(ctx: RouteContext): Reply {
  const page = ctx.query.int('page') ?? 1;
  const limit = ctx.query.int('limit') ?? 50;
  if (page < 1 || limit < 1 || limit > 250)
    return v3Error(422, 'page and limit must be positive (limit at most 250)');
  const active = ctx.query.bool('is_active');
  const scope = ctx.query.string('scope');
  const destination = ctx.query.string('destination');
  const hooks = allHooks(ctx.db).filter(
    (h) =>
      (active === undefined || h.is_active === active) &&
      (scope === undefined || h.scope === scope) &&
      (destination === undefined || h.destination === destination),
  );
  const offset = (page - 1) * limit;
  return json(200, {
    data: hooks.slice(offset, offset + limit),
    meta: { pagination: { offset, limit, total_items: hooks.length } },
  });
}

export function getHook(ctx: RouteContext): Reply {
  const hook = loadHook(ctx.db, Number(ctx.params.id));
  return hook ? single(200, hook) : v3Error(404, 'Webhook not found');
}

export function updateHook(ctx: RouteContext): Reply {
  const hook = loadHook(ctx.db, Number(ctx.params.id));
  if (!hook) return v3Error(404, 'Webhook not found');
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const scope = readScope(body, errors, false);
  const destination = readDestination(body, errors, false);
  const isActive = bool(body, 'is_active', errors);
  const history = bool(body, 'events_history_enabled', errors);
  const headers = readHeaders(body, errors);
  assertValid(errors, 'JSON data is missing or invalid');
  const updated: HookRecord = {
    ...hook,
    ...(scope !== undefined ? { scope } : {}),
    ...(destination !== undefined ? { destination } : {}),
    ...(isActive !== undefined ? { is_active: isActive } : {}),
    ...(history !== undefined ? { events_history_enabled: history } : {}),
    ...(headers !== undefined ? { headers } : {}),
    updated_at: seconds(),
  };
  ctx.db.prepare('UPDATE hooks SET doc = ? WHERE id = ?').run(JSON.stringify(updated), hook.id);
  return single(200, updated);
}

export function deleteHook(ctx: RouteContext): Reply {
  const hook = loadHook(ctx.db, Number(ctx.params.id));
  if (!hook) return v3Error(404, 'Webhook not found');
  ctx.db.prepare('DELETE FROM hooks WHERE id = ?').run(hook.id);
  return single(200, hook);
}

/** Whether a hook's scope covers an event (`store/product/*` covers `store/product/updated`). */
export function scopeMatches(hookScope: string, event: string): boolean {
  if (hookScope === event) return true;
  if (!hookScope.endsWith('/*')) return false;
  return event.startsWith(hookScope.slice(0, -1));
}

/** Sends a store event to every active hook whose scope matches, in the background. */
export function emitStoreEvent(
  db: DatabaseSync,
  config: SandboxConfig,
  scope: string,
  data: { type: string; id: number } & Record<string, unknown>,
): void {
  const storeId = String(storeInformation(config.storeHash).store_id);
  for (const hook of allHooks(db)) {
    if (!hook.is_active || !scopeMatches(hook.scope, scope)) continue;
    const createdAt = seconds();
    const payload = {
      scope,
      store_id: storeId,
      data,
      hash: createHash('sha1').update(JSON.stringify(data)).digest('hex'),
      created_at: createdAt,
      producer: `stores/${config.storeHash}`,
    };
    const body = JSON.stringify(payload);
    config.webhooks.enqueue({
      source: 'bigcommerce',
      hookId: String(hook.id),
      url: hook.destination,
      topic: scope,
      resourceId: String(data.id),
      build: () => ({ headers: { ...hook.headers, 'content-type': 'application/json' }, body }),
    });
  }
}
