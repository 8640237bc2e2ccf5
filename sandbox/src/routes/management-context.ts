/**
 * What every handler of the Contentful Content Management API emulation shares: its request
 * context, the body and version headers it reads, and Contentful's error replies.
 */
import type { DatabaseSync } from 'node:sqlite';
import { ctfError, type ContentfulConfig } from '../contentful-store.ts';
import type { Reply } from '../http.ts';
import type { Webhooks } from '../webhooks.ts';

export const MANAGEMENT_TYPE = 'application/vnd.contentful.management.v1+json';
export const ID = /^[a-zA-Z0-9._-]{1,64}$/;
export const SECRET_DOCUMENT = 'contentful:signing-secret';
export const USER = { sys: { type: 'Link', linkType: 'User', id: 'sandbox-editor' } };

export interface ManagementContext {
  db: DatabaseSync;
  config: ContentfulConfig;
  webhooks: Webhooks;
  method: string;
  url: URL;
  headers: Record<string, string | string[] | undefined>;
  readBody: () => Promise<string | undefined>;
}

export type Obj = Record<string, unknown>;

export function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function header(ctx: ManagementContext, name: string): string | undefined {
  const value = ctx.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export interface ValidationError {
  name: string;
  path: (string | number)[];
  details: string;
  value?: unknown;
}

export function validationFailed(errors: ValidationError[]): Reply {
  return ctfError(422, 'ValidationFailed', 'Validation error', { errors });
}

export function badRequest(message: string): Reply {
  return ctfError(400, 'BadRequest', message);
}

export function notFound(type: string, id: string): Reply {
  return ctfError(404, 'NotFound', 'The resource could not be found.', { type, id });
}

export async function jsonBody(ctx: ManagementContext): Promise<{ body?: unknown; error?: Reply }> {
  const raw = await ctx.readBody();
  if (raw === undefined)
    return { error: ctfError(413, 'PayloadTooLarge', 'The request body is too large.') };
  if (raw.trim() === '') return { body: {} };
  try {
    return { body: JSON.parse(raw) as unknown };
  } catch {
    return { error: badRequest('The request body is not valid JSON.') };
  }
}

/** The version a write names (`X-Contentful-Version`), or undefined; NaN when unreadable. */
function versionHeader(ctx: ManagementContext): number | undefined {
  const raw = header(ctx, 'x-contentful-version');
  if (raw === undefined) return undefined;
  return /^\d{1,9}$/.test(raw.trim()) ? Number(raw) : Number.NaN;
}

function versionMismatch(): Reply {
  return ctfError(409, 'VersionMismatch', 'Version mismatch');
}

/** The `X-Contentful-Version` check of a write: a mismatch when given and not `current`. */
export function checkVersion(ctx: ManagementContext, current: number): Reply | undefined {
  const version = versionHeader(ctx);
  if (version === undefined) return undefined;
  return version === current ? undefined : versionMismatch();
}

export function methodNotAllowed(allow: string): Reply {
  return ctfError(405, 'MethodNotAllowed', 'Method not allowed', undefined, { Allow: allow });
}
