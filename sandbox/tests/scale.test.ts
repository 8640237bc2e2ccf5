/**
 * The sandbox at build-bench scale: 10,000 products seed, pages of 250 with variants, images and
 * custom fields answer whole, and the hand-written seed is identical at every catalogue size.
 * How fast is for `npm run bench:build` to print (timings in a test only measure the machine).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PRODUCTS, SEED_PRODUCT_COUNT } from '../src/fixtures.ts';
import { startTestSandbox, type TestSandbox } from '../src/testing.ts';

const SIZE = 10_000;
let big: TestSandbox;
let small: TestSandbox;

async function get(sandbox: TestSandbox, path: string): Promise<{ body: unknown }> {
  const response = await fetch(`${sandbox.url}/stores/${sandbox.storeHash}${path}`, {
    headers: { 'X-Auth-Token': sandbox.token },
  });
  const body = (await response.json()) as unknown;
  expect(response.status).toBe(200);
  return { body };
}

interface Page {
  data: { id: number; variants?: unknown[]; categories: number[]; brand_id: number }[];
  meta: { pagination: { total: number; total_pages: number } };
}

beforeAll(async () => {
  big = await startTestSandbox({ products: SIZE });
  small = await startTestSandbox();
});

afterAll(async () => {
  await big.close();
  await small.close();
});

describe(`${SIZE} products`, () => {
  test('a page of 250 with variants, images and custom fields, anywhere in the catalogue', async () => {
    await get(big, '/v3/catalog/products?limit=250&include=variants');
    for (const page of [1, 17, 40]) {
      const { body } = await get(
        big,
        `/v3/catalog/products?limit=250&page=${page}&include=variants,images,custom_fields&sort=price`,
      );
      const reply = body as Page;
      expect(reply.data).toHaveLength(250);
      expect(reply.meta.pagination).toMatchObject({ total: SIZE, total_pages: SIZE / 250 });
      expect(reply.data.every((p) => (p.variants?.length ?? 0) > 0)).toBe(true);
    }
  });

  test('generated products spread over categories and brands', async () => {
    const { body } = await get(big, `/v3/catalog/products?limit=250&page=${SIZE / 250}`);
    const reply = body as Page;
    expect(new Set(reply.data.map((p) => p.brand_id)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(reply.data.map((p) => p.categories.at(-1))).size).toBeGreaterThanOrEqual(25);
  });

  test('the hand-written seed is the same at every size (fixtures hold)', async () => {
    const query = `/v3/catalog/products?limit=250&id:max=${100 + SEED_PRODUCT_COUNT}&include=variants,images,custom_fields`;
    const [a, b] = await Promise.all([get(big, query), get(small, query)]);
    const strip = (body: unknown): string =>
      JSON.stringify(body).replaceAll(/http:\/\/127\.0\.0\.1:\d+/g, '');
    expect((a.body as Page).data).toHaveLength(SEED_PRODUCT_COUNT);
    expect(strip((a.body as Page).data)).toBe(strip((b.body as Page).data));
    expect((a.body as Page).data.some((p) => p.id === PRODUCTS.manyColours)).toBe(true);
  });
});
