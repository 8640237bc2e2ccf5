/**
 * The API middleware of spec §7 as a plain function: `POST /api/{service}/{method}` with the
 * call's arguments as a JSON array, answered `{ data }` or `{ message, statusCode }`.
 * Arguments are validated with zod before any upstream call. Framework-free: the Astro route
 * `src/pages/api/[service]/[method].ts` and the integration tests call it the same way.
 */
import { z } from 'zod';
import { API_BUDGET_MS, WRITE_BUDGET_MS, withBudget } from '../connectors/http/budget.ts';
import { cacheKey, createCache } from '../connectors/http/cache.ts';
import { directClient, type ClientInfo } from '../auth/client.ts';
import { ReplyCookies } from '../auth/cookies.ts';
import { logFailure, oneLine, upstreamFailure } from '../faults/failures.ts';
import { isJsonRequest, isSameOriginRequest } from '../auth/security.ts';
import { log } from '../config/log.ts';

/** One callable method: a zod tuple for its arguments and the call itself. */
export interface ApiMethod<C> {
  readonly args: z.ZodType<readonly unknown[]>;
  /**
   * A state-changing method: called only with a JSON body from the shop's own origin
   * (`Sec-Fetch-Site: same-origin` or a matching `Origin`), else 403 'Forbidden'.
   */
  readonly mutates: boolean;
  /**
   * A catalogue read whose reply depends only on its arguments and the service's cache scope
   * (the storefront channel): kept briefly in the service's cache (single flight, stale copy
   * when upstream fails) and marked cacheable for a CDN or server cache.
   */
  readonly cacheable: boolean;
  /** `args` is the output of `args` (typed by `defineMethod`). */
  run(context: C, args: never): Promise<unknown>;
}

/** Declares a method, tying `run`'s arguments to the tuple schema. */
export function defineMethod<C, S extends z.ZodType<readonly unknown[]>>(
  args: S,
  run: (context: C, args: z.output<S>) => Promise<unknown>,
  options: { mutates?: boolean; cacheable?: boolean } = {},
): ApiMethod<C> {
  return { args, run, mutates: options.mutates ?? false, cacheable: options.cacheable ?? false };
}

/** What the handler knows of one call, from which a service builds its methods' context. */
export interface CallContext {
  request: Request;
  /** Cookies to set on the reply (whatever the reply: data or error). */
  cookies: ReplyCookies;
  /** The client behind the trusted proxies: address (limits), scheme, public origin. */
  clientInfo: ClientInfo;
}

/**
 * A service: its methods, and how to build their context (e.g. a client) for a call; the
 * context may be awaited (the session is read from the shared store).
 */
export interface ApiService<C> {
  readonly methods: Readonly<Record<string, ApiMethod<C>>>;
  /** What a cacheable reply depends on besides its method and arguments (e.g. the channel). */
  cacheScope?(call: CallContext): string;
  context(call: CallContext): C | Promise<C>;
}

/** A service with its context type hidden, as the handler sees it. */
export interface BoundService {
  method(name: string): BoundMethod | undefined;
  /**
   * True for a method of a feature switched off (spec §1, §6 flags): answered 404, like a
   * route of that feature, rather than 500 as an unknown method.
   */
  disabled?(name: string): boolean;
}

export interface BoundMethod {
  readonly args: z.ZodType<readonly unknown[]>;
  readonly mutates: boolean;
  call(call: CallContext, args: readonly unknown[]): Promise<unknown>;
  /** For a cacheable method: the reply body (`{"data":…}`) through the service's cache. */
  readonly cachedBody?: (call: CallContext, args: readonly unknown[]) => Promise<string>;
}

/** How long a cacheable reply is reused, and served stale when upstream fails. */
export const REPLY_TTL_MS = 30_000;
export const REPLY_GRACE_MS = 10 * 60_000;
/** Bounds of a service's reply cache (bodies are JSON text: weight is their length). */
const REPLY_CACHE_ENTRIES = 2_000;
const REPLY_CACHE_CHARS = 32 * 1024 * 1024;

/** Cache-Control of a cacheable reply (no cookie set): a CDN or server cache may keep it. */
export const CACHEABLE_REPLY = 'public, max-age=0, s-maxage=30, stale-while-revalidate=60';

export function bindService<C>(service: ApiService<C>): BoundService {
  const replies = createCache<string>({
    ttlMs: REPLY_TTL_MS,
    graceMs: REPLY_GRACE_MS,
    maxEntries: REPLY_CACHE_ENTRIES,
    maxWeight: REPLY_CACHE_CHARS,
    weigh: (body) => body.length,
    onStale: (key, error) => {
      logFailure('api', `stale reply served for ${clip(key)}`, error);
    },
  });
  return {
    method(name) {
      // Own properties only: `toString`, `__proto__`... are not methods of the API.
      if (!Object.hasOwn(service.methods, name)) return undefined;
      const method = service.methods[name];
      if (method === undefined) return undefined;
      return {
        args: method.args,
        mutates: method.mutates,
        call: async (call, args) => method.run(await service.context(call), args as never),
        ...(method.cacheable
          ? {
              cachedBody: (call: CallContext, args: readonly unknown[]) =>
                replies.get(cacheKey(service.cacheScope?.(call) ?? '', name, args), async () =>
                  JSON.stringify({
                    data: (await method.run(await service.context(call), args as never)) ?? null,
                  }),
                ),
            }
          : {}),
      };
    },
  };
}

export type ApiServices = Readonly<Record<string, BoundService>>;

/** An error answered as is: bad input (400), too large (413), unknown middleware (500)... */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: string;
  readonly status: number;
  /** Headers of the error reply (`Retry-After` of a 429). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * What the shopper's screen needs beside the message, sent as the reply's `details` (a
   * refused add's stock left per line); JSON-safe, never internals.
   */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    headers: Readonly<Record<string, string>> = {},
    details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
    this.details = details;
  }
}

/** Largest accepted request body; the arguments of a call are small. */
export const MAX_BODY_BYTES = 100 * 1024;

const JSON_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  // Replies depend on the caller (host, cookies): never cached by the browser or a CDN, but
  // for the cacheable methods' (CACHEABLE_REPLY).
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

export interface ApiCall {
  service: string;
  method: string;
}

export interface ApiErrorBody {
  message: string;
  statusCode: number;
  /** An `ApiError`'s details, when it has some. */
  details?: Readonly<Record<string, unknown>>;
}

export interface ApiCallOptions {
  /**
   * The client (`locals.clientInfo` of the client middleware); without it, the request as it
   * comes: no address, the URL's scheme and origin.
   */
  clientInfo?: ClientInfo | undefined;
}

/** Answers one API call; never throws. Cookies a method sets ride on any reply. */
export async function handleApiCall(
  request: Request,
  { service, method }: ApiCall,
  services: ApiServices,
  options: ApiCallOptions = {},
): Promise<Response> {
  const clientInfo = options.clientInfo ?? directClient(new URL(request.url));
  const cookies = new ReplyCookies({ secure: clientInfo.secure });
  const reply = (body: unknown, init: { status: number; headers?: Record<string, string> }) =>
    replyWith(body, init, cookies);
  try {
    if (request.method !== 'POST') {
      return reply(
        { message: 'Method not allowed: use POST', statusCode: 405 },
        { status: 405, headers: { Allow: 'POST' } },
      );
    }
    const target = Object.hasOwn(services, service) ? services[service] : undefined;
    if (target === undefined) {
      throw new ApiError(500, 'UNKNOWN_SERVICE', `Unknown middleware: ${clip(service)}`);
    }
    if (target.disabled?.(method) === true) {
      throw new ApiError(404, 'FEATURE_DISABLED', 'Not found');
    }
    const found = target.method(method);
    if (found === undefined) {
      throw new ApiError(
        500,
        'UNKNOWN_METHOD',
        `Unknown middleware method: ${clip(service)}.${clip(method)}`,
      );
    }
    const sameOrigin = isSameOriginRequest(request, clientInfo.origin);
    if (found.mutates && !(isJsonRequest(request) && sameOrigin)) {
      throw new ApiError(403, 'FORBIDDEN', 'Forbidden');
    }
    const body = await readJsonArray(request);
    const args = validateArgs(found.args, body, `${service}.${method}`);
    const call: CallContext = { request, cookies, clientInfo };
    const { cachedBody } = found;
    if (cachedBody !== undefined) {
      const text = await withBudget(API_BUDGET_MS, () => cachedBody(call, args));
      // A reply that sets a cookie is the caller's own: never shared.
      const shared = cookies.headers().length === 0;
      return replyText(
        text,
        { status: 200, headers: shared ? { 'Cache-Control': CACHEABLE_REPLY } : {} },
        cookies,
      );
    }
    const budget = found.mutates ? WRITE_BUDGET_MS : API_BUDGET_MS;
    const data = await withBudget(budget, () => found.call(call, args));
    return reply({ data: data ?? null }, { status: 200 });
  } catch (error) {
    const body = normaliseError(error);
    if (body.statusCode >= 500) {
      const what = `${clip(service)}.${clip(method)} failed`;
      // A deliberate answer (unknown middleware, not configured) is one line, like upstream's.
      if (error instanceof ApiError)
        log.error(
          { what, code: error.code, reason: oneLine(error.message) },
          '[api] method not available',
        );
      else logFailure('api', what, error);
    }
    const headers = error instanceof ApiError ? { ...error.headers } : {};
    return reply(body, { status: body.statusCode, headers });
  }
}

/**
 * Spec §8 "Errors in the call layer": `{ message, statusCode }` where statusCode is the
 * error's status, else its response's status, else 500. An upstream that is down, too slow or
 * failing answers 502, 503 or 504 with a message key the islands show in French
 * (`failures.ts`). Other errors that carry a status are deliberate (connector and API errors,
 * with safe messages); anything else is a bug whose message may hold internals, so it is
 * answered with a generic one.
 */
export function normaliseError(error: unknown): ApiErrorBody {
  const failure = upstreamFailure(error);
  if (failure !== undefined) return { message: failure.message, statusCode: failure.status };
  if (error instanceof ApiError && error.details !== undefined) {
    return { message: error.message, statusCode: error.status, details: error.details };
  }
  const status = httpStatus(readProp(error, 'status'));
  const responseStatus = httpStatus(readProp(readProp(error, 'response'), 'status'));
  const statusCode = status ?? responseStatus ?? 500;
  const known = error instanceof Error && (status !== undefined || responseStatus !== undefined);
  return { message: known ? error.message : 'Internal server error', statusCode };
}

function readProp(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function httpStatus(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 400 && value <= 599
    ? value
    : undefined;
}

function replyWith(
  body: unknown,
  init: { status: number; headers?: Record<string, string> },
  cookies: ReplyCookies,
) {
  return replyText(JSON.stringify(body), init, cookies);
}

function replyText(
  text: string,
  init: { status: number; headers?: Record<string, string> },
  cookies: ReplyCookies,
) {
  const headers = new Headers({ ...JSON_HEADERS, ...init.headers });
  for (const cookie of cookies.headers()) headers.append('Set-Cookie', cookie);
  return new Response(text, { status: init.status, headers });
}

/** Route parameters come from the URL: keep them short in messages and logs. */
function clip(value: string): string {
  return value.length > 64 ? `${value.slice(0, 64)}…` : value;
}

/** Reads the body (at most MAX_BODY_BYTES) as a JSON array; an empty body is `[]`. */
async function readJsonArray(request: Request): Promise<unknown[]> {
  const tooLarge = () =>
    new ApiError(413, 'BODY_TOO_LARGE', `Request body exceeds ${MAX_BODY_BYTES} bytes`);
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  if (text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'INVALID_JSON', 'Request body is not valid JSON');
  }
  if (!Array.isArray(parsed)) {
    throw new ApiError(
      400,
      'INVALID_ARGUMENTS',
      "Request body must be a JSON array of the call's arguments",
    );
  }
  return parsed as unknown[];
}

/** Validates the arguments; the 400 message names the argument and the field at fault. */
function validateArgs(
  schema: z.ZodType<readonly unknown[]>,
  args: unknown[],
  call: string,
): readonly unknown[] {
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) {
    throw new ApiError(400, 'INVALID_ARGUMENTS', `Invalid arguments for ${call}`);
  }
  const [index, ...path] = issue.path;
  if (typeof index !== 'number') {
    // An issue on the tuple itself: an argument is missing, or there are too many.
    const items = tupleItems(schema);
    const missing = items.findIndex((item, i) => i >= args.length && item.isOptional?.() !== true);
    if (missing >= 0) {
      const name = argumentName(schema, missing);
      throw new ApiError(
        400,
        'INVALID_ARGUMENTS',
        `Missing argument ${missing + 1}${name === undefined ? '' : ` (${name})`} of ${call}`,
      );
    }
    throw new ApiError(
      400,
      'INVALID_ARGUMENTS',
      `Too many arguments for ${call}: got ${args.length}, expected at most ${items.length}`,
    );
  }
  const name = argumentName(schema, index);
  const at = path.length > 0 ? ` at ${path.map(String).join('.')}` : '';
  throw new ApiError(
    400,
    'INVALID_ARGUMENTS',
    `Invalid argument ${index + 1}${name === undefined ? '' : ` (${name})`} of ${call}${at}: ${issue.message}`,
  );
}

interface TupleDef {
  items?: readonly { description?: string | undefined; isOptional?: () => boolean }[];
}

function tupleItems(schema: z.ZodType) {
  return (schema.def as TupleDef).items ?? [];
}

/**
 * Names an argument schema for error messages, like `.describe(name)` does for a classic zod
 * schema; also for the shared `zod/mini` schemas of `src/lib/commerce/validation.ts`.
 */
export function named<S extends z.core.$ZodType>(schema: S, name: string): S {
  z.globalRegistry.add(schema, { description: name });
  return schema;
}

/** Names given with `.describe('query')` or `named()` to the tuple's items. */
function argumentName(schema: z.ZodType, index: number): string | undefined {
  const item = tupleItems(schema)[index];
  if (item === undefined) return undefined;
  return item.description ?? z.globalRegistry.get(item as z.core.$ZodType)?.description;
}
