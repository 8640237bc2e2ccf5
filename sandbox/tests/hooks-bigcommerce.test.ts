/**
 * The sandbox's outgoing webhooks: Contentful's management emulation (draft, publish,
 * unpublish, delete, versions, validation), its webhook definitions and signing secret, signed
 * deliveries checked with a verifier written here from Contentful's documentation (known-answer
 * vector included), retries and the delivery log; BigCommerce's `/v3/hooks` and the store
 * webhooks sent on product writes.
 *
 * This file: BigCommerce's store webhooks.
 */
import { webhookLog } from './webhooks.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from './helpers.ts';
import { sandboxApi, startTestSandbox, type TestSandbox } from '../src/testing.ts';

let sandbox: TestSandbox;
let receiver: WebhookReceiver;
let api: ReturnType<typeof sandboxApi>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ webhookRetryDelaysMs: [100, 200] });
  receiver = await startWebhookReceiver();
  api = sandboxApi(sandbox);
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

afterEach(() => {
  receiver.release();
  receiver.replies.length = 0;
});

const { settled } = webhookLog(() => sandbox);

function json(request: ReceivedRequest | undefined): Record<string, unknown> {
  return JSON.parse(request?.body ?? 'null') as Record<string, unknown>;
}

describe('BigCommerce store webhooks', () => {
  interface Hook {
    id: number;
    scope: string;
    destination: string;
    is_active: boolean;
    headers: Record<string, string>;
    created_at: number;
    updated_at: number;
  }

  it('creates, lists, reads, updates and deletes hooks, and validates them', async () => {
    const bad = await api('POST', '/v3/hooks', {
      scope: 'orders',
      destination: 'ftp://x',
      headers: { 'X-A': 'a\nb' },
    });
    expect(bad.status).toBe(422);
    const created = await api<{ data: Hook }>('POST', '/v3/hooks', {
      scope: 'store/category/updated',
      destination: `${receiver.url}/categories`,
      is_active: true,
      headers: {},
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      scope: 'store/category/updated',
      is_active: true,
      headers: {},
    });
    expect(created.body.data.created_at).toEqual(expect.any(Number));
    const duplicate = await api('POST', '/v3/hooks', {
      scope: 'store/category/updated',
      destination: `${receiver.url}/categories`,
      is_active: true,
      headers: {},
    });
    expect(duplicate.status).toBe(422);
    const id = created.body.data.id;
    expect((await api<{ data: Hook }>('GET', `/v3/hooks/${id}`)).body.data.id).toBe(id);
    const updated = await api<{ data: Hook }>('PUT', `/v3/hooks/${id}`, { is_active: false });
    expect(updated.body.data.is_active).toBe(false);
    const list = await api<{ data: Hook[]; meta: { pagination: { total_items: number } } }>(
      'GET',
      '/v3/hooks',
    );
    expect(list.body.data.map((h) => h.id)).toContain(id);
    expect(list.body.meta.pagination.total_items).toBe(list.body.data.length);
    expect((await api('DELETE', `/v3/hooks/${id}`)).status).toBe(200);
    expect((await api('GET', `/v3/hooks/${id}`)).status).toBe(404);
    expect((await api('GET', '/v3/hooks', undefined, { token: 'nope' })).status).toBe(401);
  });

  it('sends store/product/created, updated and deleted to matching active hooks with their headers', async () => {
    const products = await startWebhookReceiver();
    const categories = await startWebhookReceiver();
    try {
      await api('POST', '/v3/hooks', {
        scope: 'store/product/*',
        destination: `${products.url}/webhooks/bigcommerce`,
        is_active: true,
        headers: { 'X-Webhook-Secret': 'secret-partage' },
      });
      await api('POST', '/v3/hooks', {
        scope: 'store/product/deleted',
        destination: `${products.url}/inactive`,
        is_active: false,
        headers: {},
      });
      await api('POST', '/v3/hooks', {
        scope: 'store/category/updated',
        destination: categories.url,
        is_active: true,
        headers: {},
      });

      const created = await api<{ data: { id: number; custom_url: { url: string } } }>(
        'POST',
        '/v3/catalog/products',
        {
          name: 'Matelas Webhook',
          type: 'physical',
          weight: 20,
          price: 499,
          sale_price: 449,
          categories: [22],
          brand_id: 40,
          inventory_tracking: 'product',
          inventory_level: 5,
          custom_fields: [{ name: 'technology', value: 'Ressorts ensachés' }],
          images: [{ image_url: '/images/800x800/matelas-blanc-a.jpg', is_thumbnail: true }],
          variants: [
            {
              sku: 'WH-140',
              price: 499,
              option_values: [{ option_display_name: 'Taille', label: '140x190 cm' }],
            },
            {
              sku: 'WH-160',
              price: 599,
              option_values: [{ option_display_name: 'Taille', label: '160x200 cm' }],
            },
          ],
        },
      );
      expect(created.status).toBe(200);
      const id = created.body.data.id;
      expect(created.body.data.custom_url.url).toBe('/matelas-webhook');
      const read = await api<{
        data: {
          name: string;
          variants: { sku: string; option_values: unknown[] }[];
          images: { url_standard: string }[];
          custom_fields: { name: string }[];
          options: { display_name: string; option_values: unknown[] }[];
        };
      }>('GET', `/v3/catalog/products/${id}?include=variants,images,custom_fields,options`);
      expect(read.body.data.variants.map((v) => v.sku)).toEqual(['WH-140', 'WH-160']);
      expect(read.body.data.options).toMatchObject([{ display_name: 'Taille' }]);
      expect(read.body.data.images[0]?.url_standard).toBe(
        `${sandbox.url}/images/800x800/matelas-blanc-a.jpg`,
      );
      const inCategory = await api<{ data: { id: number }[] }>(
        'GET',
        '/v3/catalog/products?categories:in=22&limit=250&keyword=webhook',
      );
      expect(inCategory.body.data.map((p) => p.id)).toEqual([id]);
      const duplicate = await api('POST', '/v3/catalog/products', {
        name: 'Matelas Webhook',
        type: 'physical',
        weight: 1,
        price: 1,
      });
      expect(duplicate.status).toBe(409);
      const invalid = await api('POST', '/v3/catalog/products', {
        name: 'Sans prix',
        type: 'physical',
        weight: 1,
        categories: [123_456],
      });
      expect(invalid.status).toBe(422);

      const updated = await api<{ data: { price: number } }>('PUT', `/v3/catalog/products/${id}`, {
        price: 459,
        inventory_level: 2,
      });
      expect(updated.body.data.price).toBe(459);
      expect((await api('DELETE', `/v3/catalog/products/${id}`)).status).toBe(204);
      expect((await api('GET', `/v3/catalog/products/${id}`)).status).toBe(404);
      expect(
        (await api('PUT', `/v3/catalog/categories/22`, { name: 'Ressorts ensachés' })).status,
      ).toBe(200);

      const requests = await products.waitFor(4);
      expect(requests.every((r) => r.path === '/webhooks/bigcommerce')).toBe(true);
      // Deliveries run concurrently: the order of arrival is not guaranteed.
      expect(requests.map((r) => (json(r) as { scope: string }).scope).sort()).toEqual([
        'store/product/created',
        'store/product/deleted',
        'store/product/inventory/updated',
        'store/product/updated',
      ]);
      for (const request of requests) {
        expect(request.headers['x-webhook-secret']).toBe('secret-partage');
        expect(request.headers['content-type']).toBe('application/json');
        const payload = json(request) as {
          store_id: string;
          data: { type: string; id: number };
          hash: string;
          created_at: number;
          producer: string;
        };
        expect(payload.data).toMatchObject({ type: 'product', id });
        expect(payload.store_id).toMatch(/^\d+$/);
        expect(payload.hash).toMatch(/^[0-9a-f]{40}$/);
        expect(payload.created_at).toEqual(expect.any(Number));
        expect(payload.producer).toBe(`stores/${sandbox.storeHash}`);
      }
      const [category] = await categories.waitFor(1);
      expect(json(category)).toMatchObject({
        scope: 'store/category/updated',
        data: { type: 'category', id: 22 },
      });
      const log = await settled(5, 'bigcommerce');
      expect(
        log
          .filter((d) => d.topic.startsWith('store/product/'))
          .every((d) => d.state === 'delivered'),
      ).toBe(true);
      // Nothing reached the inactive hook.
      expect(products.received.some((r) => r.path === '/inactive')).toBe(false);
    } finally {
      await products.close();
      await categories.close();
    }
  });
});
