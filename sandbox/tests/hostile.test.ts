/**
 * The sandbox's hostile catalogue (`hostile` option / SANDBOX_HOSTILE=1): a product, a
 * category and a banner holding every payload, served like any record, and nothing of it
 * without the option (a data dir seeded without it is re-seeded, and the other way round).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CATEGORIES, HOSTILE, HOSTILE_PAYLOADS, SEED_PRODUCT_COUNT } from '../src/fixtures.ts';
import { startSandbox } from '../src/server.ts';
import { sandboxApi } from '../src/testing.ts';

interface Product {
  id: number;
  name: string;
  description: string;
  categories: number[];
  is_visible: boolean;
  total_sold: number;
  sale_price: number;
  custom_url: { url: string };
}
interface Category {
  id: number;
  parent_id: number;
  name: string;
  description: string;
  is_visible: boolean;
  custom_url: { url: string };
}

const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-hostile-'));
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

async function withSandbox(
  hostile: boolean,
  check: (api: ReturnType<typeof sandboxApi>) => Promise<void>,
) {
  const sandbox = await startSandbox({ port: 0, dataDir, hostile });
  try {
    await check(sandboxApi(sandbox));
  } finally {
    await sandbox.close();
  }
}

describe('hostile catalogue', () => {
  test('with the option: product, category and banner hold every payload', async () => {
    await withSandbox(true, async (api) => {
      const product = (
        await api<{ data: Product }>('GET', `/v3/catalog/products/${HOSTILE.productId}`)
      ).body.data;
      expect(product.name).toBe(HOSTILE.productName);
      for (const payload of HOSTILE_PAYLOADS) expect(product.description).toContain(payload.html);
      expect(product.categories).toEqual([expect.any(Number), HOSTILE.categoryId]);
      expect(product).toMatchObject({ is_visible: true, total_sold: 0, sale_price: 0 });

      const category = (
        await api<{ data: Category }>('GET', `/v3/catalog/categories/${HOSTILE.categoryId}`)
      ).body.data;
      expect(category).toMatchObject({
        name: HOSTILE.categoryName,
        is_visible: true,
        custom_url: { url: HOSTILE.categoryUrl },
      });
      expect(category.parent_id).toBe(product.categories[0]);
      for (const payload of HOSTILE_PAYLOADS) expect(category.description).toContain(payload.html);

      const banners = (
        await api<{ id: number; visible: string; content: string }[]>('GET', '/v2/banners')
      ).body;
      const banner = banners.find((b) => b.id === HOSTILE.bannerId);
      expect(banner?.visible).toBe('1');
      expect(Math.max(...banners.map((b) => b.id))).toBe(HOSTILE.bannerId);
      for (const payload of HOSTILE_PAYLOADS) expect(banner?.content).toContain(payload.html);

      // The hand-written seed is unchanged beside it.
      const seed = await api<{ meta: { pagination: { total: number } } }>(
        'GET',
        `/v3/catalog/products?limit=1&id:max=${100 + SEED_PRODUCT_COUNT}`,
      );
      expect(seed.body.meta.pagination.total).toBe(SEED_PRODUCT_COUNT);
      const matelas = await api('GET', `/v3/catalog/categories/${CATEGORIES.matelas}`);
      expect(matelas.status).toBe(200);
    });
  });

  test('without the option (same data dir, re-seeded): none of it', async () => {
    await withSandbox(false, async (api) => {
      expect((await api('GET', `/v3/catalog/products/${HOSTILE.productId}`)).status).toBe(404);
      expect((await api('GET', `/v3/catalog/categories/${HOSTILE.categoryId}`)).status).toBe(404);
      const banners = (await api<{ id: number }[]>('GET', '/v2/banners')).body;
      expect(banners.map((b) => b.id)).not.toContain(HOSTILE.bannerId);
    });
  });
});
