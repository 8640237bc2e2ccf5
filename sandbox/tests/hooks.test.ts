/**
 * The sandbox's outgoing webhooks: Contentful's management emulation (draft, publish,
 * unpublish, delete, versions, validation), its webhook definitions and signing secret, signed
 * deliveries checked with a verifier written here from Contentful's documentation (known-answer
 * vector included), retries and the delivery log; BigCommerce's `/v3/hooks` and the store
 * webhooks sent on product writes.
 *
 * This file: Contentful's management emulation and its webhooks (signing: hooks-signing.test.ts;
 * BigCommerce: hooks-bigcommerce.test.ts).
 */
import { webhookLog, verify } from './webhooks.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  sandboxDelivery,
  sandboxManagement,
  startWebhookReceiver,
  type ReceivedRequest,
  type WebhookReceiver,
} from './helpers.ts';
import { startTestSandbox, type TestSandbox } from '../src/testing.ts';

const SECRET = 'k'.repeat(40) + 'Q1w2E3r4T5y6U7i8O9p0-_Zx';

let sandbox: TestSandbox;
let receiver: WebhookReceiver;
let cma: ReturnType<typeof sandboxManagement>;
let cda: ReturnType<typeof sandboxDelivery>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ webhookRetryDelaysMs: [100, 200] });
  receiver = await startWebhookReceiver();
  cma = sandboxManagement(sandbox);
  cda = sandboxDelivery(sandbox);
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

afterEach(() => {
  receiver.release();
  receiver.replies.length = 0;
});

const { deliveries, settled } = webhookLog(() => sandbox);

function json(request: ReceivedRequest | undefined): Record<string, unknown> {
  return JSON.parse(request?.body ?? 'null') as Record<string, unknown>;
}

describe('Contentful management and webhooks', () => {
  const entryPath = '/environments/master/entries/test-page';

  it('refuses a missing or wrong management token', async () => {
    for (const authorization of [undefined, 'Bearer sandbox-cda-token', 'Bearer nope']) {
      const response = await fetch(
        `${sandbox.url}/contentful-management/spaces/${sandbox.contentful.spaceId}${entryPath}`,
        { headers: authorization ? { Authorization: authorization } : {} },
      );
      expect(response.status).toBe(401);
      const body = (await response.json()) as { sys: { id: string } };
      expect(body.sys.id).toBe('AccessTokenInvalid');
    }
    const log = await fetch(`${sandbox.url}/__sandbox/webhook-deliveries`);
    expect(log.status).toBe(401);
  });

  it('validates webhook definitions and the signing secret', async () => {
    const bad = await cma('POST', '/webhook_definitions', {
      name: '',
      url: 'javascript:alert(1)',
      topics: ['Entry.explode'],
      headers: [{ key: 'X-Bad', value: 'a\r\nInjected: yes' }],
    });
    expect(bad.status).toBe(422);
    expect((bad.body as { sys: { id: string } }).sys.id).toBe('ValidationFailed');
    const short = await cma('PUT', '/webhook_settings/signing_secret', { value: 'too-short' });
    expect(short.status).toBe(422);
  });

  it('publishes a draft, sends a signed Entry.publish webhook in the background, and serves it', async () => {
    const created = await cma<{ sys: { id: string } }>('POST', '/webhook_definitions', {
      name: 'Boutique',
      url: `${receiver.url}/webhooks/contentful?source=sandbox`,
      topics: ['Entry.publish', 'Entry.unpublish', 'Entry.delete'],
      headers: [{ key: 'X-Shop-Hint', value: 'rebuild' }],
    });
    expect(created.status).toBe(201);
    expect(created.body.sys.id).toEqual(expect.any(String));
    const secret = await cma<{ redactedValue: string }>('PUT', '/webhook_settings/signing_secret', {
      value: SECRET,
    });
    expect(secret.status).toBe(200);
    expect(secret.body.redactedValue.endsWith(SECRET.slice(-4))).toBe(true);
    expect(JSON.stringify(secret.body)).not.toContain(SECRET.slice(0, 20));

    // A draft: no webhook for these topics, not on the Delivery API.
    const draft = await cma<{ sys: { version: number } }>(
      'PUT',
      entryPath,
      {
        fields: {
          title: { fr: 'Page de test' },
          slug: { fr: 'page-de-test' },
          description: { fr: 'Une page créée par le test.' },
        },
        metadata: { tags: [{ sys: { type: 'Link', linkType: 'Tag', id: 'coupDeCoeur' } }] },
      },
      { 'X-Contentful-Content-Type': 'contentPage' },
    );
    expect(draft.status).toBe(201);
    expect(draft.body.sys.version).toBe(1);
    expect((await cda('/entries/test-page')).status).toBe(404);

    // Publish while the shop is slow to answer: the management call does not wait for it.
    receiver.hold();
    const published = await cma<{ sys: { version: number; publishedVersion: number } }>(
      'PUT',
      `${entryPath}/published`,
      undefined,
      { 'X-Contentful-Version': '1' },
    );
    expect(published.status).toBe(200);
    expect(published.body.sys).toMatchObject({ version: 2, publishedVersion: 1 });
    const [request] = await receiver.waitFor(1);
    expect((await deliveries('contentful')).at(-1)?.state).toBe('pending');
    receiver.release();

    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/webhooks/contentful?source=sandbox');
    expect(request?.headers['content-type']).toBe('application/vnd.contentful.management.v1+json');
    expect(request?.headers['x-contentful-topic']).toBe('ContentManagement.Entry.publish');
    expect(request?.headers['x-shop-hint']).toBe('rebuild');
    if (!request) throw new Error('no request');
    expect(verify(SECRET, request)).toBe(true);
    expect(verify('x'.repeat(64), request)).toBe(false);
    expect(verify(SECRET, { ...request, body: request.body.replace('test', 'tost') })).toBe(false);
    const body = json(request) as {
      sys: { id: string; type: string; revision: number; contentType: { sys: { id: string } } };
      fields: { title: { fr: string } };
    };
    expect(body.sys).toMatchObject({ id: 'test-page', type: 'Entry', revision: 1 });
    expect(body.sys.contentType.sys.id).toBe('contentPage');
    expect(body.fields.title.fr).toBe('Page de test');

    const served = await cda<{ fields: { title: string }; metadata: { tags: unknown[] } }>(
      '/entries/test-page',
    );
    expect(served.status).toBe(200);
    expect(served.body.fields.title).toBe('Page de test');
    expect(served.body.metadata.tags).toHaveLength(1);
    const bySlug = await cda<{ total: number }>(
      '/entries?content_type=contentPage&fields.slug=page-de-test',
    );
    expect(bySlug.body.total).toBe(1);
    const log = await settled(1, 'contentful');
    expect(log.at(-1)).toMatchObject({
      topic: 'ContentManagement.Entry.publish',
      resourceId: 'test-page',
      state: 'delivered',
    });
  });

  it('checks versions, keeps the published version until the next publish, retries a failed delivery', async () => {
    const stale = await cma(
      'PUT',
      entryPath,
      { fields: { title: { fr: 'x' }, slug: { fr: 'x' } } },
      { 'X-Contentful-Version': '1' },
    );
    expect(stale.status).toBe(409);
    expect((stale.body as { sys: { id: string } }).sys.id).toBe('VersionMismatch');
    const updated = await cma<{ sys: { version: number } }>(
      'PUT',
      entryPath,
      { fields: { title: { fr: 'Page de test modifiée' }, slug: { fr: 'page-de-test' } } },
      { 'X-Contentful-Version': '2' },
    );
    expect(updated.status).toBe(200);
    expect(updated.body.sys.version).toBe(3);
    const before = await cda<{ fields: { title: string } }>('/entries/test-page');
    expect(before.body.fields.title).toBe('Page de test');

    const count = receiver.received.length;
    receiver.replies.push(503);
    const published = await cma('PUT', `${entryPath}/published`);
    expect(published.status).toBe(200);
    const requests = await receiver.waitFor(count + 2);
    const [first, second] = requests.slice(count);
    if (!first || !second) throw new Error('no retry');
    expect(verify(SECRET, first)).toBe(true);
    expect(verify(SECRET, second)).toBe(true);
    expect(json(second)).toMatchObject({ sys: { revision: 2 } });
    const log = await settled(2, 'contentful');
    expect(log.at(-1)?.attempts.map((a) => a.status)).toEqual([503, 200]);
    expect(log.at(-1)?.state).toBe('delivered');
    const after = await cda<{ fields: { title: string }; sys: { revision: number } }>(
      '/entries/test-page',
    );
    expect(after.body.fields.title).toBe('Page de test modifiée');
    expect(after.body.sys.revision).toBe(2);
  });

  it('refuses invalid fields and unpublishable entries', async () => {
    const invalid = await cma<{
      sys: { id: string };
      details: { errors: { name: string; path: unknown[] }[] };
    }>(
      'PUT',
      '/environments/master/entries/bad-entry',
      {
        fields: {
          title: { fr: 42 },
          nope: { fr: 'x' },
          slug: { en: 'x' },
          body: { fr: { nodeType: 'paragraph' } },
        },
      },
      { 'X-Contentful-Content-Type': 'contentPage' },
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.sys.id).toBe('ValidationFailed');
    expect(invalid.body.details.errors.map((e) => e.path.join('.')).sort()).toEqual(
      ['fields.body.fr', 'fields.nope', 'fields.slug.en', 'fields.title.fr'].sort(),
    );
    const noType = await cma('PUT', '/environments/master/entries/no-type', { fields: {} });
    expect(noType.status).toBe(422);
    const incomplete = await cma(
      'PUT',
      '/environments/master/entries/incomplete',
      { fields: { title: { fr: 'Sans slug' } } },
      { 'X-Contentful-Content-Type': 'contentPage' },
    );
    expect(incomplete.status).toBe(201);
    const publish = await cma('PUT', '/environments/master/entries/incomplete/published');
    expect(publish.status).toBe(422);
    expect((await cma('PUT', '/environments/master/entries/missing/published')).status).toBe(404);
    expect((await cma('PUT', '/environments/master/entries/bad%20id')).status).toBe(400);
  });

  it('unpublishes and deletes with DeletedEntry tombstones', async () => {
    const count = receiver.received.length;
    expect((await cma('DELETE', entryPath)).status).toBe(400); // published: unpublish first
    const unpublished = await cma('DELETE', `${entryPath}/published`);
    expect(unpublished.status).toBe(200);
    expect((await cda('/entries/test-page')).status).toBe(404);
    expect((await cma('DELETE', `${entryPath}/published`)).status).toBe(400);
    const deleted = await cma('DELETE', entryPath);
    expect(deleted.status).toBe(204);
    expect((await cma('GET', entryPath)).status).toBe(404);
    const requests = (await receiver.waitFor(count + 2)).slice(count);
    expect(requests.map((r) => r.headers['x-contentful-topic']).sort()).toEqual([
      'ContentManagement.Entry.delete',
      'ContentManagement.Entry.unpublish',
    ]);
    for (const request of requests) {
      expect(verify(SECRET, request)).toBe(true);
      expect(json(request)).toMatchObject({
        sys: { type: 'DeletedEntry', id: 'test-page', contentType: { sys: { id: 'contentPage' } } },
      });
    }
  });

  it('sends create and save events to a wildcard definition, unsigned once the secret is removed', async () => {
    const other = await startWebhookReceiver();
    try {
      const definition = await cma<{ sys: { id: string } }>('POST', '/webhook_definitions', {
        name: 'Tout',
        url: other.url,
        topics: ['*.*'],
      });
      expect(definition.status).toBe(201);
      expect((await cma('DELETE', '/webhook_settings/signing_secret')).status).toBe(204);
      await cma(
        'PUT',
        '/environments/master/entries/wild',
        { fields: { title: { fr: 'Joker' }, slug: { fr: 'joker' } } },
        { 'X-Contentful-Content-Type': 'brandCorner' },
      );
      await cma('PUT', '/environments/master/entries/wild', {
        fields: { title: { fr: 'Joker 2' }, slug: { fr: 'joker' } },
      });
      const requests = await other.waitFor(2);
      expect(requests.map((r) => r.headers['x-contentful-topic']).sort()).toEqual([
        'ContentManagement.Entry.create',
        'ContentManagement.Entry.save',
      ]);
      for (const r of requests) expect(r.headers['x-contentful-signature']).toBeUndefined();
      expect((await cma('DELETE', `/webhook_definitions/${definition.body.sys.id}`)).status).toBe(
        204,
      );
      const list = await cma<{ items: { name: string }[] }>('GET', '/webhook_definitions');
      expect(list.body.items.map((d) => d.name)).toEqual(['Boutique']);
    } finally {
      await other.close();
    }
  });
});
