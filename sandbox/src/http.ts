/** HTTP helpers of the sandbox: replies, BigCommerce error shapes, query validation, pagination. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const ERROR_TYPE =
  'https://developer.bigcommerce.com/api-docs/getting-started/api-status-codes';

/** A reply already serialised; `body` is JSON text or bytes. */
export interface Reply {
  status: number;
  body: string | Uint8Array;
  headers?: Record<string, string>;
}

export function json(status: number, value: unknown): Reply {
  return { status, body: JSON.stringify(value) };
}

/** v3 error `{ status, title, type, errors? }`. */
export function v3Error(status: number, title: string, errors?: Record<string, string>): Reply {
  return json(
    status,
    errors ? { status, title, type: ERROR_TYPE, errors } : { status, title, type: ERROR_TYPE },
  );
}

/** v2 error `[{ status, message }]`. */
export function v2Error(status: number, message: string): Reply {
  return json(status, [{ status, message }]);
}

/** Writes the reply; a HEAD request gets the headers (with the real length) and no body. */
export function send(res: ServerResponse, reply: Reply, head = false): void {
  const isJson = typeof reply.body === 'string';
  res.writeHead(reply.status, {
    ...(isJson ? { 'Content-Type': 'application/json' } : {}),
    'Content-Length': String(
      typeof reply.body === 'string' ? Buffer.byteLength(reply.body) : reply.body.byteLength,
    ),
    ...reply.headers,
  });
  res.end(head ? undefined : reply.body);
}

/** Thrown by query parsing; becomes a 422 like BigCommerce's. */
export class QueryError extends Error {
  readonly param: string;
  constructor(param: string, message: string) {
    super(message);
    this.name = 'QueryError';
    this.param = param;
  }
}

export function queryErrorReply(error: QueryError): Reply {
  return v3Error(422, `The filter(s): ${error.param} are invalid.`, {
    [error.param]: error.message,
  });
}

/** Typed reads of query parameters; invalid values throw QueryError. */
export class Query {
  readonly params: URLSearchParams;
  constructor(params: URLSearchParams) {
    this.params = params;
  }

  string(name: string): string | undefined {
    const value = this.params.get(name);
    return value === null || value === '' ? undefined : value;
  }

  int(name: string): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value)) throw new QueryError(name, `${name} must be an integer`);
    return Number(value);
  }

  number(name: string): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isFinite(n)) throw new QueryError(name, `${name} must be a number`);
    return n;
  }

  bool(name: string): boolean | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    throw new QueryError(name, `${name} must be a boolean`);
  }

  /** Comma-separated list (`id:in=1,2`); repeated parameters are merged. */
  list(name: string): string[] | undefined {
    const all = this.params.getAll(name).flatMap((v) => v.split(','));
    const items = all.map((v) => v.trim()).filter((v) => v !== '');
    return items.length > 0 ? items : undefined;
  }

  intList(name: string): number[] | undefined {
    const items = this.list(name);
    if (!items) return undefined;
    for (const item of items) {
      if (!/^-?\d+$/.test(item))
        throw new QueryError(name, `${name} must be a comma separated list of integers`);
    }
    return items.map(Number);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      throw new QueryError(name, `${name} must be one of ${allowed.join(', ')}`);
    }
    return value as T;
  }
}

export interface Paging {
  page: number;
  limit: number;
  offset: number;
}

/** page and limit; limit defaults to 50 and may not exceed `max` (250 on the catalogue). */
export function paging(query: Query, defaultLimit = 50, max = 250): Paging {
  const page = query.int('page') ?? 1;
  const limit = query.int('limit') ?? defaultLimit;
  if (page < 1) throw new QueryError('page', 'page must be greater than 0');
  if (limit < 1 || limit > max) throw new QueryError('limit', `limit must be between 1 and ${max}`);
  return { page, limit, offset: (page - 1) * limit };
}

export interface Pagination {
  total: number;
  count: number;
  per_page: number;
  current_page: number;
  total_pages: number;
  links: { previous?: string; current: string; next?: string };
}

/** meta.pagination; links are query strings like BigCommerce's (`?page=2&limit=50`). */
export function pagination(query: Query, paged: Paging, total: number, count: number): Pagination {
  const totalPages = Math.ceil(total / paged.limit);
  const link = (page: number): string => {
    const params = new URLSearchParams(query.params);
    params.delete('page');
    params.delete('limit');
    const rest = params.toString();
    return `?page=${page}&limit=${paged.limit}${rest ? `&${rest}` : ''}`;
  };
  return {
    total,
    count,
    per_page: paged.limit,
    current_page: paged.page,
    total_pages: totalPages,
    links: {
      ...(paged.page > 1 ? { previous: link(paged.page - 1) } : {}),
      current: link(paged.page),
      ...(paged.page < totalPages ? { next: link(paged.page + 1) } : {}),
    },
  };
}

/** `{ data: [...], meta: { pagination } }` from already serialised items. */
export function collection(items: readonly string[], meta: { pagination: Pagination }): Reply {
  return { status: 200, body: `{"data":[${items.join(',')}],"meta":${JSON.stringify(meta)}}` };
}

/** Applies include_fields / exclude_fields (the id always stays). */
export function projectFields<T extends object>(record: T, query: Query): Partial<T> {
  const include = query.list('include_fields');
  const exclude = query.list('exclude_fields');
  if (!include && !exclude) return record;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key !== 'id' && include && !include.includes(key)) continue;
    if (key !== 'id' && exclude?.includes(key)) continue;
    out[key] = value;
  }
  return out as Partial<T>;
}

/** SQL IN list of `?` placeholders. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(',');
}

/** 204 with no body. */
export function noContent(): Reply {
  return { status: 204, body: '' };
}

/** An HTML page (the sandbox's hosted storefront). */
export function html(status: number, page: string, headers: Record<string, string> = {}): Reply {
  return {
    status,
    body: Buffer.from(page, 'utf8'),
    headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers },
  };
}

/** A redirect with no body. */
export function redirect(
  status: 302 | 303,
  location: string,
  headers: Record<string, string> = {},
): Reply {
  return { status, body: '', headers: { Location: location, ...headers } };
}

/** `{ data, meta: {} }` */
export function single(status: number, data: unknown): Reply {
  return json(status, { data, meta: {} });
}

/** Thrown by body validation; becomes a 422 (v3 `{ status, title, type, errors }`, v2 `[{ status, message }]`). */
export class InvalidBody extends Error {
  readonly status: number;
  readonly errors: Record<string, string> | undefined;
  constructor(title: string, errors?: Record<string, string>, status = 422) {
    super(title);
    this.name = 'InvalidBody';
    this.errors = errors;
    this.status = status;
  }
}

/** Largest request body accepted (BigCommerce's own limit is larger; a sandbox needs no more). */
const BODY_LIMIT = 1_000_000;

/**
 * Reads the request body; undefined when it is larger than BODY_LIMIT (the rest is still
 * read and dropped, so the connection stays usable).
 */
export async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size <= BODY_LIMIT) chunks.push(chunk);
  }
  return size > BODY_LIMIT ? undefined : Buffer.concat(chunks).toString('utf8');
}

/** HTML-escapes text for the hosted pages. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** Reads cookies of a request header. */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index < 1) continue;
    const name = part.slice(0, index).trim();
    try {
      out[name] = decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      out[name] = part.slice(index + 1).trim();
    }
  }
  return out;
}
