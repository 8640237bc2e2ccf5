/**
 * The request id of the request being served: the storefront server gives every request one
 * (`X-Request-Id` from a trusted proxy when well formed, else a new UUID; `requestIdOf`) and
 * runs Astro's handler and the webhooks for it inside `runWithRequestId`
 * (`src/server/request-id.ts` `asRequestOf`), so whatever runs there, however deep (the
 * middleware, loaders, the connectors' HTTP client), reads it with `currentRequestId()`: every
 * log line it writes carries it (`log.ts`), every upstream call sends it
 * (`connectors/http/upstream-client.ts`). Outside a request (the build, the supervisor, a
 * publish) there is none.
 *
 * The server script and the SSR bundle each hold their own copy of this module: the one
 * AsyncLocalStorage lives on `globalThis` under a registered symbol, so both read the context
 * the server opened.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header that carries the id, in both directions and to the upstream services. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** A request id the shop takes as given: 1 to 128 characters of `[A-Za-z0-9._:-]`. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

const SLOT = Symbol.for('literie.request-context');

function storage(): AsyncLocalStorage<string> {
  const holder = globalThis as { [SLOT]?: AsyncLocalStorage<string> };
  holder[SLOT] ??= new AsyncLocalStorage<string>();
  return holder[SLOT];
}

/** Whether `value` (a header's value as received) is a request id the shop takes as given. */
export function isWellFormedRequestId(value: unknown): value is string {
  return typeof value === 'string' && WELL_FORMED.test(value);
}

/**
 * The id of a request: the `X-Request-Id` it came with when its peer is a trusted proxy
 * (`fromTrustedProxy`) and the value is well formed (one header, not repeated), else a new one
 * (`make`, a random UUID). A visitor cannot choose the id its lines are logged under.
 */
export function requestIdOf(
  header: string | string[] | undefined,
  fromTrustedProxy: boolean,
  make: () => string = randomUUID,
): string {
  return fromTrustedProxy && isWellFormedRequestId(header) ? header : make();
}

/** Runs `run` as the request `id`: `currentRequestId()` answers `id` within it. */
export function runWithRequestId<T>(id: string, run: () => T): T {
  return storage().run(id, run);
}

/** The id of the request being served, or undefined outside a request. */
export function currentRequestId(): string | undefined {
  return storage().getStore();
}
