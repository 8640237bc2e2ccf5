/**
 * The Content Delivery API's search parameters, as the emulation reads and applies them:
 * equality and `[ne|in|nin|all|exists|match|lt|lte|gt|gte]` filters on `sys.*`, `fields.*`
 * (with `content_type`) and `metadata.tags.sys.id`, `query`, `order`, `limit`/`skip` and
 * `select`; an invalid one is an InvalidQuery (400).
 */
import {
  CONTENT_TYPE_BY_ID,
  CONTENTFUL_LOCALE,
  type ContentTypeDefinition,
  type FieldDefinition,
} from '../seed/contentful-model.ts';
import { fold } from '../seed/random.ts';

export const DELIVERY_TYPE = 'application/vnd.contentful.delivery.v1+json';
export const MAX_LIMIT = 1000;
export const MAX_INCLUDE = 10;
const INVALID_QUERY =
  'The query you sent was invalid. Probably a filter or ordering specification is not applicable to the type of a field.';

/** Thrown while reading the query; becomes a 400 InvalidQuery (or the given error id). */
export class InvalidQuery extends Error {
  readonly errors: Record<string, unknown>[];
  readonly id: string;
  constructor(errors: Record<string, unknown>[], message = INVALID_QUERY, id = 'InvalidQuery') {
    super(message);
    this.errors = errors;
    this.id = id;
  }
}

export type Wire = Record<string, unknown>;

interface Filter {
  key: string;
  path: string[];
  op: string;
  value: string;
}

const OPERATORS = new Set(['ne', 'in', 'nin', 'all', 'exists', 'match', 'lt', 'lte', 'gt', 'gte']);
const RESERVED = new Set([
  'content_type',
  'limit',
  'skip',
  'include',
  'order',
  'locale',
  'select',
  'query',
  'access_token',
  'links_to_entry',
  'links_to_asset',
  'mimetype_group',
]);
export const ENTRY_SYS = new Set([
  'id',
  'createdAt',
  'updatedAt',
  'revision',
  'type',
  'publishedVersion',
]);
const ORDERABLE: ReadonlySet<string> = new Set(['Symbol', 'Integer', 'Number', 'Date', 'Boolean']);

export function intParam(
  params: URLSearchParams,
  name: string,
  fallback: number,
  max: number,
): number {
  const raw = params.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) {
    throw new InvalidQuery([
      { name: 'type', path: [name], value: raw, details: `${name} must be a non-negative integer` },
    ]);
  }
  const n = Number(raw);
  if (n > max) {
    throw new InvalidQuery([
      { name: 'size', path: [name], max, value: n, details: `${name} must be at most ${max}` },
    ]);
  }
  return n;
}

export function locale(params: URLSearchParams): string {
  const value = params.get('locale');
  if (value === null || value === '' || value === CONTENTFUL_LOCALE || value === '*')
    return value === '*' ? value : CONTENTFUL_LOCALE;
  throw new InvalidQuery([], `Unknown locale: ${value}`, 'BadRequest');
}

export function contentTypeOf(params: URLSearchParams): ContentTypeDefinition | undefined {
  const id = params.get('content_type');
  if (id === null) return undefined;
  const type = CONTENT_TYPE_BY_ID.get(id);
  if (!type) throw new InvalidQuery([{ name: 'unknownContentType', value: id }]);
  return type;
}

function fieldOf(
  type: ContentTypeDefinition | undefined,
  name: string,
  key: string,
): FieldDefinition {
  if (!type) {
    throw new InvalidQuery([
      {
        name: 'unknownContentType',
        path: key.split('.'),
        details: 'A content_type is required to filter or order on fields.',
      },
    ]);
  }
  const field = type.fields.find((f) => f.id === name);
  if (!field) {
    throw new InvalidQuery([
      { name: 'unknown', path: key.split('.'), details: `No field with id "${name}" found.` },
    ]);
  }
  return field;
}

function isLinkField(field: FieldDefinition): boolean {
  return field.type === 'Link' || (field.type === 'Array' && field.items?.type === 'Link');
}

/** Validates a filter or order path of an entry search. */
export function checkEntryPath(
  path: string[],
  key: string,
  type: ContentTypeDefinition | undefined,
): FieldDefinition | undefined {
  const [root, name, ...rest] = path;
  if (root === 'sys') {
    if (name === 'contentType' && rest.join('.') === 'sys.id') return undefined;
    if (name !== undefined && ENTRY_SYS.has(name) && rest.length === 0) return undefined;
  } else if (root === 'metadata') {
    if (name === 'tags' && (rest.length === 0 || rest.join('.') === 'sys.id')) return undefined;
  } else if (root === 'fields' && name !== undefined) {
    const field = fieldOf(type, name, key);
    if (rest.length === 0) return field;
    if (rest.join('.') === 'sys.id' && isLinkField(field)) return field;
  }
  throw new InvalidQuery([
    { name: 'unknown', path, details: `The path "${key}" is not recognized.` },
  ]);
}

/** Values at `path` in a wire object, arrays flattened at every step. */
export function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  let current: unknown[] = [value];
  for (const key of path) {
    const next: unknown[] = [];
    for (const item of current) {
      if (item === null || typeof item !== 'object') continue;
      const child = (item as Record<string, unknown>)[key];
      if (Array.isArray(child)) next.push(...(child as unknown[]));
      else if (child !== undefined) next.push(child);
    }
    current = next;
  }
  return current;
}

/** Plain text of a field value (rich text: its text nodes). */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object') {
    const node = value as { value?: unknown; content?: unknown };
    const parts: string[] = [];
    if (typeof node.value === 'string') parts.push(node.value);
    if (Array.isArray(node.content)) for (const child of node.content) parts.push(textOf(child));
    return parts.join(' ');
  }
  return '';
}

export function matches(haystack: string, needle: string): boolean {
  const text = fold(haystack);
  return fold(needle)
    .split(/\s+/)
    .filter(Boolean)
    .every((term) => text.includes(term));
}

function compare(a: unknown, b: string): number {
  if (typeof a === 'number') return a - Number(b);
  const left = String(a);
  const dateA = Date.parse(left);
  const dateB = Date.parse(b);
  if (/^\d{4}-\d{2}-\d{2}/.test(left) && !Number.isNaN(dateA) && !Number.isNaN(dateB))
    return dateA - dateB;
  return left < b ? -1 : left > b ? 1 : 0;
}

function same(a: unknown, b: string): boolean {
  return typeof a === 'number' ? a === Number(b) : String(a) === b;
}

export function passes(values: unknown[], filter: Filter): boolean {
  const list = filter.value.split(',').map((v) => v.trim());
  switch (filter.op) {
    case 'eq':
      return values.some((v) => same(v, filter.value));
    case 'ne':
      return !values.some((v) => same(v, filter.value));
    case 'in':
      return values.some((v) => list.some((item) => same(v, item)));
    case 'nin':
      return !values.some((v) => list.some((item) => same(v, item)));
    case 'all':
      return list.every((item) => values.some((v) => same(v, item)));
    case 'exists':
      return filter.value === 'false' ? values.length === 0 : values.length > 0;
    case 'match':
      return values.some((v) => matches(textOf(v), filter.value));
    case 'lt':
      return values.some((v) => compare(v, filter.value) < 0);
    case 'lte':
      return values.some((v) => compare(v, filter.value) <= 0);
    case 'gt':
      return values.some((v) => compare(v, filter.value) > 0);
    case 'gte':
      return values.some((v) => compare(v, filter.value) >= 0);
    default:
      return false;
  }
}

export function parseFilters(
  params: URLSearchParams,
  check: (path: string[], key: string) => void,
): Filter[] {
  const filters: Filter[] = [];
  for (const [key, value] of params) {
    if (RESERVED.has(key)) continue;
    const match = /^((?:sys|fields|metadata)(?:\.[\w-]+)+)(?:\[(\w+)\])?$/.exec(key);
    if (!match) {
      if (key.includes('.') || key.includes('[')) {
        throw new InvalidQuery([
          { name: 'unknown', path: [key], details: `The path "${key}" is not recognized.` },
        ]);
      }
      continue; // Other parameters are ignored, as by the Delivery API.
    }
    const path = (match[1] ?? '').split('.');
    const op = match[2] ?? 'eq';
    if (op !== 'eq' && !OPERATORS.has(op)) {
      throw new InvalidQuery([{ name: 'unknownOperator', path, value: op }]);
    }
    if (op === 'exists' && value !== 'true' && value !== 'false') {
      throw new InvalidQuery([
        { name: 'type', path, value, details: 'exists takes true or false' },
      ]);
    }
    check(path, match[1] ?? '');
    filters.push({ key, path, op, value });
  }
  return filters;
}

interface OrderKey {
  path: string[];
  descending: boolean;
}

export function parseOrder(
  params: URLSearchParams,
  check: (path: string[], key: string) => FieldDefinition | undefined,
): OrderKey[] {
  const raw = params.get('order');
  if (raw === null || raw.trim() === '') return [];
  return raw.split(',').map((item) => {
    const trimmed = item.trim();
    const descending = trimmed.startsWith('-');
    const key = descending ? trimmed.slice(1) : trimmed;
    const path = key.split('.');
    const field = check(path, key);
    if (field && (!ORDERABLE.has(field.type) || path.length > 2)) {
      throw new InvalidQuery([{ name: 'unsupported', path, details: `Cannot order by ${key}.` }]);
    }
    if (path[0] === 'metadata') {
      throw new InvalidQuery([{ name: 'unsupported', path, details: `Cannot order by ${key}.` }]);
    }
    return { path, descending };
  });
}

export function orderBy(items: Wire[], keys: OrderKey[]): Wire[] {
  if (keys.length === 0) return items;
  const indexed = items.map((item, index) => ({ item, index }));
  indexed.sort((a, b) => {
    for (const key of keys) {
      const va = valuesAt(a.item, key.path)[0];
      const vb = valuesAt(b.item, key.path)[0];
      if (va === vb) continue;
      // Missing values last, whatever the direction.
      if (va === undefined) return 1;
      if (vb === undefined) return -1;
      const diff =
        typeof va === 'number' && typeof vb === 'number'
          ? va - vb
          : compare(va, typeof vb === 'string' ? vb : JSON.stringify(vb));
      if (diff !== 0) return key.descending ? -diff : diff;
    }
    return a.index - b.index;
  });
  return indexed.map((e) => e.item);
}

export function select(item: Wire, params: URLSearchParams): Wire {
  const raw = params.get('select');
  if (raw === null || raw.trim() === '') return item;
  const out: Wire = { sys: item.sys };
  for (const path of raw.split(',').map((p) => p.trim().split('.'))) {
    if (path.length > 2 || !['sys', 'fields', 'metadata'].includes(path[0] ?? '')) {
      throw new InvalidQuery([{ name: 'select', path, details: 'Select depth is at most 2.' }]);
    }
    const [root, name] = path as [string, string | undefined];
    const source = item[root] as Record<string, unknown> | undefined;
    if (!source) continue;
    if (name === undefined) out[root] = source;
    else if (source[name] !== undefined) {
      out[root] = {
        ...(out[root] ?? {}),
        [name]: source[name],
      };
    }
  }
  return out;
}
