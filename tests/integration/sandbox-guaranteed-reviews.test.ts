/**
 * The sandbox's emulation of the guaranteed-reviews public API (the provider's documentation: `{ ratings:
 * { total, average, distribution }, reviews: [{ id, c, r, txt, date, odate, reply, rdate, lang }] }`,
 * newest first, at most 1,000), checked over HTTP against that documented shape and against
 * the seeded BigCommerce products it derives from.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { REVIEW_SITES } from '../../src/lib/server/reviews/sites.ts';
import { sandboxApi, startTestSandbox, type TestSandbox } from './helpers/sandbox.ts';

let sandbox: TestSandbox;
let base: string;
let products: SeededProduct[];
const siteId = REVIEW_SITES[0]?.siteId ?? '';

interface SeededProduct {
  id: number;
  is_visible: boolean;
  reviews_count: number;
  reviews_rating_sum: number;
}

const count = z.number().int().nonnegative();
const providerDate = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

// The documented reply, strictly: no field more, none less.
const ReplySchema = z.strictObject({
  ratings: z.strictObject({
    total: count,
    average: z.number().min(0).max(5),
    distribution: z.strictObject({ 1: count, 2: count, 3: count, 4: count, 5: count }),
  }),
  reviews: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        c: z.string().regex(/^\p{Lu}[\p{L}'-]+ \p{Lu}\.$/u),
        r: z.number().int().min(1).max(5),
        txt: z.string().min(3),
        date: providerDate,
        odate: providerDate,
        reply: z.string().nullable(),
        rdate: providerDate.nullable(),
        lang: z.literal('fr'),
      }),
    )
    .max(1000),
});
type ProviderReply = z.output<typeof ReplySchema>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  base = `${sandbox.url}/guaranteed-reviews/public/v3/reviews`;
  const api = sandboxApi(sandbox);
  products = [];
  for (let page = 1; ; page++) {
    const reply = await api<{
      data: SeededProduct[];
      meta: { pagination: { total_pages: number } };
    }>(
      'GET',
      `/v3/catalog/products?limit=250&page=${String(page)}&include_fields=is_visible,reviews_count,reviews_rating_sum`,
    );
    expect(reply.status).toBe(200);
    products.push(...reply.body.data);
    if (page >= reply.body.meta.pagination.total_pages) break;
  }
});

afterAll(async () => {
  await sandbox.close();
});

afterEach(async () => {
  await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'DELETE',
    headers: { 'X-Auth-Token': sandbox.token },
  });
});

async function read(path: string): Promise<ProviderReply> {
  const response = await fetch(`${base}/${path}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return ReplySchema.parse(await response.json());
}

/** The checks every reply passes: distribution adds up, average from it, newest first. */
function expectConsistent(reply: ProviderReply): void {
  const { total, average, distribution } = reply.ratings;
  const counts = [1, 2, 3, 4, 5].map((score) => distribution[score as 1 | 2 | 3 | 4 | 5]);
  expect(counts.reduce((a, b) => a + b, 0)).toBe(total);
  const sum = counts.reduce((acc, n, i) => acc + n * (i + 1), 0);
  expect(average).toBe(total === 0 ? 0 : Math.round((sum / total) * 100) / 100);
  const dates = reply.reviews.map((review) => review.date);
  expect(dates).toEqual([...dates].sort().reverse());
  expect(new Set(reply.reviews.map((review) => review.id)).size).toBe(reply.reviews.length);
}

describe('GET {siteKey}/site', () => {
  test('the documented shape; ratings of every visible seeded product; the same on each read', async () => {
    const reply = await read(`${siteId}/site`);
    expectConsistent(reply);
    const visible = products.filter((p) => p.is_visible);
    expect(reply.ratings.total).toBe(visible.reduce((acc, p) => acc + p.reviews_count, 0));
    expect(reply.reviews.length).toBeGreaterThan(0);
    expect(await read(`${siteId}/site`)).toEqual(reply);
  });

  test('every brand with a site id is served', async () => {
    for (const site of REVIEW_SITES) {
      if (site.siteId === null) continue;
      expect((await read(`${site.siteId}/site`)).ratings.total).toBeGreaterThan(0);
    }
  });
});

describe('GET {siteKey}/{productId}', () => {
  test('a product: its BigCommerce review count and rating sum, French reviews newest first', async () => {
    const product = products.find((p) => p.reviews_count > 0 && p.reviews_count <= 1000);
    expect(product).toBeDefined();
    if (product === undefined) return;
    const reply = await read(`${siteId}/${String(product.id)}`);
    expectConsistent(reply);
    expect(reply.ratings.total).toBe(product.reviews_count);
    expect(reply.reviews).toHaveLength(product.reviews_count);
    expect(reply.reviews.reduce((acc, review) => acc + review.r, 0)).toBe(
      product.reviews_rating_sum,
    );
    expect(reply.reviews[0]?.txt).toMatch(/[a-zàâçéèêëîïôûùüÿœ]/i);
    expect(await read(`${siteId}/${String(product.id)}`)).toEqual(reply);
  });

  test('a product without reviews: zero ratings, every score counted 0, no reviews', async () => {
    const product = products.find((p) => p.reviews_count === 0);
    expect(product).toBeDefined();
    expect(await read(`${siteId}/${String(product?.id)}`)).toEqual({
      ratings: { total: 0, average: 0, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } },
      reviews: [],
    });
  });
});

describe('errors', () => {
  test.each([
    ['a malformed site key', 'bad%20key/site'],
    ['a key with a dot segment', '..%2F..%2Fadmin/site'],
    ['no target', siteId],
    ['an extra segment', `${siteId}/site/extra`],
    ['a product id that is no id', `${siteId}/abc`],
    ['an unknown product', `${siteId}/99999999`],
  ])('%s: 404 with a JSON { error }', async (_name, path) => {
    const response = await fetch(`${base}/${path}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: expect.any(String) as unknown });
  });

  test('a write is refused: 405 { error }', async () => {
    const response = await fetch(`${base}/${siteId}/site`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(await response.json()).toEqual({ error: expect.any(String) as unknown });
  });

  test('an injected fault answers the provider’s { error } shape, then the reply comes back', async () => {
    const added = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'X-Auth-Token': sandbox.token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ match: '/guaranteed-reviews/', status: 503, times: 1 }),
    });
    expect(added.status).toBe(201);
    const faulted = await fetch(`${base}/${siteId}/site`);
    expect(faulted.status).toBe(503);
    expect(await faulted.json()).toEqual({ error: expect.any(String) as unknown });
    await read(`${siteId}/site`);
  });
});
