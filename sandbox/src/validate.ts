/**
 * Reading request bodies field by field: each reader records why a field is invalid under its
 * path (`line_items.0.quantity`) and `assertValid` turns the collected errors into a 422.
 */
import { InvalidBody } from './http.ts';

export type Errors = Record<string, string>;
export type Obj = Record<string, unknown>;

export function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** BigCommerce's title for a body that misses or mistypes fields. */
export const INVALID_TITLE = 'Missing or invalid data';

export function assertValid(errors: Errors, title = INVALID_TITLE): void {
  if (Object.keys(errors).length > 0) throw new InvalidBody(title, errors);
}

function at(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** An integer (numbers with a zero fraction and numeric strings are accepted, as upstream). */
export function int(
  o: Obj,
  key: string,
  errors: Errors,
  path = '',
  options: { required?: boolean; min?: number; max?: number } = {},
): number | undefined {
  const raw = o[key];
  if (raw === undefined || raw === null) {
    if (options.required) errors[at(path, key)] = `${key} is required`;
    return undefined;
  }
  const n = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    errors[at(path, key)] = `${key} must be an integer`;
    return undefined;
  }
  if (options.min !== undefined && n < options.min) {
    errors[at(path, key)] = `${key} must be at least ${options.min}`;
    return undefined;
  }
  if (options.max !== undefined && n > options.max) {
    errors[at(path, key)] = `${key} must be at most ${options.max}`;
    return undefined;
  }
  return n;
}

export function num(
  o: Obj,
  key: string,
  errors: Errors,
  path = '',
  options: { required?: boolean; min?: number } = {},
): number | undefined {
  const raw = o[key];
  if (raw === undefined || raw === null) {
    if (options.required) errors[at(path, key)] = `${key} is required`;
    return undefined;
  }
  if (typeof raw !== 'number' || !Number.isFinite(raw)) {
    errors[at(path, key)] = `${key} must be a number`;
    return undefined;
  }
  if (options.min !== undefined && raw < options.min) {
    errors[at(path, key)] = `${key} must be at least ${options.min}`;
    return undefined;
  }
  return raw;
}

export function str(
  o: Obj,
  key: string,
  errors: Errors,
  path = '',
  options: { required?: boolean; min?: number; max?: number } = {},
): string | undefined {
  const raw = o[key];
  if (raw === undefined || raw === null) {
    if (options.required) errors[at(path, key)] = `${key} is required`;
    return undefined;
  }
  if (typeof raw !== 'string') {
    errors[at(path, key)] = `${key} must be a string`;
    return undefined;
  }
  if (options.min !== undefined && raw.trim().length < options.min) {
    errors[at(path, key)] =
      options.min === 1
        ? `${key} is required`
        : `${key} must be at least ${options.min} characters`;
    return undefined;
  }
  if (options.max !== undefined && raw.length > options.max) {
    errors[at(path, key)] = `${key} must be at most ${options.max} characters`;
    return undefined;
  }
  return raw;
}

export function bool(o: Obj, key: string, errors: Errors, path = ''): boolean | undefined {
  const raw = o[key];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'boolean') {
    errors[at(path, key)] = `${key} must be a boolean`;
    return undefined;
  }
  return raw;
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A JSON array body (customers, addresses, form field values). */
export function arrayBody(body: unknown, min = 1): Obj[] {
  if (!Array.isArray(body) || body.length < min) {
    throw new InvalidBody(INVALID_TITLE, { '': 'The request body must be a non-empty array' });
  }
  const errors: Errors = {};
  body.forEach((item, index) => {
    if (!isObject(item)) errors[String(index)] = 'must be an object';
  });
  assertValid(errors);
  return body as Obj[];
}

export function objectBody(body: unknown): Obj {
  if (!isObject(body)) {
    throw new InvalidBody(INVALID_TITLE, { '': 'The request body must be a JSON object' });
  }
  return body;
}
