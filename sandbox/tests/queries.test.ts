/**
 * The sandbox's reads that a build makes over the whole catalogue stay linear in it:
 * no request of a page walk, of an `id:in` batch or of the guaranteed-reviews site rating scans
 * the products table. Checked on the plans SQLite makes for the statements each request runs
 * (`EXPLAIN QUERY PLAN`), not on timings: a bare `SCAN products` reads every row, tens of kB
 * each with its JSON, so one per page made a 100,000-product read grow with its square.
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sandboxApi, startTestSandbox, type TestSandbox } from '../src/testing.ts';

const SIZE = 1_200;
let sandbox: TestSandbox;
let api: ReturnType<typeof sandboxApi>;
let plans: DatabaseSync;

beforeAll(async () => {
  sandbox = await startTestSandbox({ products: SIZE });
  api = sandboxApi(sandbox);
  plans = new DatabaseSync(join(sandbox.dataDir, 'sandbox.db'), { readOnly: true });
});

afterAll(async () => {
  plans.close();
  await sandbox.close();
});

/** The SQL of every statement the sandbox (in this process) prepares while `run` runs. */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const { prepare } = DatabaseSync.prototype as { prepare: (sql: string) => StatementSync };
  DatabaseSync.prototype.prepare = function (this: DatabaseSync, sql: string): StatementSync {
    seen.push(sql);
    return prepare.call(this, sql);
  };
  try {
    await run();
  } finally {
    DatabaseSync.prototype.prepare = prepare;
  }
  return seen;
}

/** How SQLite reads the products table in each statement (`SCAN products`, `SEARCH products USING ...`). */
function productReads(sql: readonly string[]): string[] {
  return sql.flatMap((statement) =>
    (plans.prepare(`EXPLAIN QUERY PLAN ${statement}`).all() as { detail: string }[])
      .map((row) => row.detail)
      .filter((detail) => /\bproducts\b/.test(detail)),
  );
}

/** Every read of products is an index search or a walk of an index: never of the table's rows. */
const BY_INDEX =
  /^(SEARCH products USING (INTEGER PRIMARY KEY|COVERING INDEX|INDEX)|SCAN products USING COVERING INDEX)/;
/** Reads of products rows by primary key only: O(rows of the reply). */
const BY_KEY = /^SEARCH products USING INTEGER PRIMARY KEY \(rowid=\?\)$/;

interface Page {
  data: { id: number }[];
  meta: { pagination: { total: number; total_pages: number; current_page: number } };
}

const LIST = '/v3/catalog/products?is_visible=true&include=variants,images,custom_fields&limit=250';

describe('a walk over the catalogue in pages (getAllProducts)', () => {
  test('page 1 reads the matching ids through an index; every later page reads its rows by key', async () => {
    let first: Page | undefined;
    const firstReads = productReads(
      await statementsOf(async () => {
        first = (await api<Page>('GET', `${LIST}&page=1`)).body;
      }),
    );
    expect(firstReads.length).toBeGreaterThan(0);
    for (const read of firstReads) expect(read).toMatch(BY_INDEX);
    const pages = first?.meta.pagination.total_pages ?? 0;
    expect(pages).toBeGreaterThanOrEqual(4);

    const seen = new Set(first?.data.map((p) => p.id));
    for (let page = 2; page <= pages; page++) {
      let reply: Page | undefined;
      const reads = productReads(
        await statementsOf(async () => {
          reply = (await api<Page>('GET', `${LIST}&page=${page}`)).body;
        }),
      );
      // One read of the page's rows by primary key, nothing over the catalogue.
      expect(reads, `page ${page}`).toEqual([
        'SEARCH products USING INTEGER PRIMARY KEY (rowid=?)',
      ]);
      expect(reply?.meta.pagination).toMatchObject({
        total: first?.meta.pagination.total,
        current_page: page,
      });
      for (const product of reply?.data ?? []) seen.add(product.id);
    }
    // The pages add up to the total, each product once.
    expect(seen.size).toBe(first?.meta.pagination.total);
  });

  test('a write starts over: the next page counts the change', async () => {
    const before = (await api<Page>('GET', `${LIST}&page=2`)).body;
    const hidden = before.data[0]?.id ?? 0;
    expect((await api('PUT', `/v3/catalog/products/${hidden}`, { is_visible: false })).status).toBe(
      200,
    );
    try {
      const after = (await api<Page>('GET', `${LIST}&page=2`)).body;
      expect(after.meta.pagination.total).toBe(before.meta.pagination.total - 1);
      expect(after.data.map((p) => p.id)).not.toContain(hidden);
    } finally {
      await api('PUT', `/v3/catalog/products/${hidden}`, { is_visible: true });
    }
    const again = (await api<Page>('GET', `${LIST}&page=2`)).body;
    expect(again.data.map((p) => p.id)).toEqual(before.data.map((p) => p.id));
  });
});

test('an id:in batch with options and modifiers reads its products by key only', async () => {
  const ids = [101, 102, 300, 500, 700, 900, 1_000, 1_100, 1_200, 1_300];
  let reply: Page | undefined;
  const reads = productReads(
    await statementsOf(async () => {
      reply = (
        await api<Page>(
          'GET',
          `/v3/catalog/products?id:in=${ids.join(',')}&include=options,modifiers&limit=10`,
        )
      ).body;
    }),
  );
  expect(reads.length).toBeGreaterThan(0);
  for (const read of reads) expect(read).toMatch(BY_KEY);
  expect(reply?.data.map((p) => p.id)).toEqual(ids);
});

test('the guaranteed-reviews site rating reads indexes, never every product row', async () => {
  const site = `${sandbox.url}/guaranteed-reviews/public/v3/reviews/8f3c2a91d4b7e605/site`;
  let body: { ratings: { total: number } } | undefined;
  const reads = productReads(
    await statementsOf(async () => {
      body = (await (await fetch(site)).json()) as typeof body;
    }),
  );
  expect(reads.length).toBeGreaterThan(0);
  for (const read of reads) expect(read).toMatch(BY_INDEX);
  expect(body?.ratings.total).toBeGreaterThan(SIZE);
});
