/**
 * Contentful Content Management API emulation (editors' edits that the webhooks announce), at `{sandbox}/contentful-management/
 * spaces/{space}[/environments/{env}]/...` with the management bearer token: entries (create
 * or update a draft with PUT, POST with a generated id, publish, unpublish, delete, read and
 * list), content types, tags (public and private), webhook definitions and the webhook signing
 * secret. Entry events are sent to the webhook definitions whose topics match
 * (`Entry.create`, `Entry.save`, `Entry.publish`, `Entry.unpublish`, `Entry.delete`, wildcards),
 * signed when a signing secret is set, in the background (webhooks.ts). This module routes the
 * requests; the handlers are in management-entries.ts, management-webhooks.ts (definitions and
 * the signing secret), management-fields.ts (field checks) and management-context.ts.
 */
import { randomBytes } from 'node:crypto';
import {
  bearer,
  ctfError,
  ctfJson,
  readStoredEntry,
  snapshot,
  tagView,
} from '../contentful-store.ts';
import type { Reply } from '../http.ts';
import { CONTENT_TYPE_BY_ID, CONTENT_TYPES } from '../seed/contentful-model.ts';
import { contentTypeView } from './contentful.ts';
import {
  MANAGEMENT_TYPE,
  ID,
  type ManagementContext,
  header,
  badRequest,
  notFound,
  methodNotAllowed,
} from './management-context.ts';
import {
  type WebhookDefinition,
  listDefinitions,
  definitionView,
  createDefinition,
  signingSecret,
} from './management-webhooks.ts';
import {
  managementEntry,
  putEntry,
  publish,
  unpublish,
  deleteEntry,
  listEntries,
} from './management-entries.ts';

// ---------------------------------------------------------------------------------------------
// Routing

const PREFIX = /^\/contentful-management\/spaces\/([^/]+)(\/.*)?$/;

/** Answers a request below `/contentful-management`. */
export async function handleManagement(ctx: ManagementContext): Promise<Reply> {
  if (bearer(header(ctx, 'authorization'), ctx.url.searchParams) !== ctx.config.managementToken) {
    return ctfError(
      401,
      'AccessTokenInvalid',
      'The access token you sent could not be found or is invalid.',
    );
  }
  const match = PREFIX.exec(ctx.url.pathname);
  if (!match) return ctfError(404, 'NotFound', 'The resource could not be found.');
  const [, space, rawRest = ''] = match;
  if (space !== ctx.config.spaceId) return notFound('Space', space ?? '');
  let rest = rawRest.replace(/\/$/, '');
  const method = ctx.method;

  if (rest === '/webhook_definitions' || rest.startsWith('/webhook_definitions/')) {
    const id = rest.split('/')[2];
    if (id === undefined) {
      if (method === 'GET') {
        const items = listDefinitions(ctx.db).map((d) => definitionView(d, ctx.config));
        return ctfJson(
          200,
          { sys: { type: 'Array' }, total: items.length, skip: 0, limit: 100, items },
          MANAGEMENT_TYPE,
        );
      }
      return method === 'POST' ? createDefinition(ctx) : methodNotAllowed('GET, POST');
    }
    if (!ID.test(id) || rest.split('/').length > 3) return notFound('WebhookDefinition', id);
    const row = ctx.db.prepare('SELECT doc FROM ctf_webhooks WHERE id = ?').get(id) as
      { doc: string } | undefined;
    if (method === 'PUT') return createDefinition(ctx, id);
    if (!row) return notFound('WebhookDefinition', id);
    if (method === 'GET')
      return ctfJson(
        200,
        definitionView(JSON.parse(row.doc) as WebhookDefinition, ctx.config),
        MANAGEMENT_TYPE,
      );
    if (method === 'DELETE') {
      ctx.db.prepare('DELETE FROM ctf_webhooks WHERE id = ?').run(id);
      return { status: 204, body: '' };
    }
    return methodNotAllowed('GET, PUT, DELETE');
  }
  if (rest === '/webhook_settings/signing_secret') return signingSecret(ctx);

  const environment = /^\/environments\/([^/]+)(\/.*)?$/.exec(rest);
  if (environment) {
    if (environment[1] !== ctx.config.environment)
      return notFound('Environment', environment[1] ?? '');
    rest = environment[2] ?? '';
  }
  const parts = rest.split('/').slice(1);
  const [resource, id, sub, extra] = parts;
  if (extra !== undefined) return ctfError(404, 'NotFound', 'The resource could not be found.');
  if (resource === 'entries') {
    if (id === undefined) {
      if (method === 'GET') return listEntries(ctx);
      if (method === 'POST')
        return putEntry(
          ctx,
          randomBytes(16).toString('base64url').replace(/[-_]/g, 'x').slice(0, 22),
        );
      return methodNotAllowed('GET, POST');
    }
    if (!ID.test(id)) return badRequest('Invalid entry id: 1 to 64 characters of [a-zA-Z0-9._-].');
    if (sub === 'published') {
      if (method === 'PUT') return publish(ctx, id);
      if (method === 'DELETE') return unpublish(ctx, id);
      return methodNotAllowed('PUT, DELETE');
    }
    if (sub !== undefined) return ctfError(404, 'NotFound', 'The resource could not be found.');
    if (method === 'GET') {
      const entry = readStoredEntry(ctx.db, id);
      return entry
        ? ctfJson(200, managementEntry(entry, ctx.config), MANAGEMENT_TYPE)
        : notFound('Entry', id);
    }
    if (method === 'PUT') return putEntry(ctx, id);
    if (method === 'DELETE') return deleteEntry(ctx, id);
    return methodNotAllowed('GET, PUT, DELETE');
  }
  if (method !== 'GET') return methodNotAllowed('GET');
  if (resource === 'content_types' && sub === undefined) {
    if (id === undefined) {
      const items = CONTENT_TYPES.map((t) => contentTypeView(t, ctx.config));
      return ctfJson(
        200,
        { sys: { type: 'Array' }, total: items.length, skip: 0, limit: 100, items },
        MANAGEMENT_TYPE,
      );
    }
    const type = CONTENT_TYPE_BY_ID.get(id);
    return type
      ? ctfJson(200, contentTypeView(type, ctx.config), MANAGEMENT_TYPE)
      : notFound('ContentType', id);
  }
  if (resource === 'tags' && id === undefined) {
    const items = snapshot(ctx.db).tags.map((t) => tagView(t, ctx.config));
    return ctfJson(
      200,
      { sys: { type: 'Array' }, total: items.length, skip: 0, limit: 100, items },
      MANAGEMENT_TYPE,
    );
  }
  return ctfError(404, 'NotFound', 'The resource could not be found.');
}
