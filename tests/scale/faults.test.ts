/**
 * The production build with its upstream down or hanging, over HTTP: static
 * pages keep serving, and listing views, which render from the release's listings; other
 * on-demand pages answer their last cached copy when they have one, else the error page within
 * 2 s; API calls answer the normalised error within 3 s (catalogue reads
 * their cached reply); one log line per failure, no stack; recovery without restart. A fresh
 * sandbox on the port the build talks to (faults set on it directly), the server in a child
 * process (tests/scale/helpers/serve.ts) with short render-cache lifetimes.
 * Run by `npm test` after the build (vitest project `scale`); by hand:
 * `DIST_DIR=dist-x SANDBOX_PORT=N npx vitest run --project scale tests/scale/faults.test.ts`
 * on a build made with those.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DownMode } from '@literie/sandbox/faults';
import { startSandbox, type Sandbox } from '@literie/sandbox/server';
import { categoryPath } from '../../src/lib/commerce/slug.ts';
import { freePort } from '../../src/server/free-port.ts';
import { startShopProcess, type ShopProcess } from './helpers/shop.ts';
import { DIST_DIR, requireBuild, SANDBOX_PORT } from './helpers/suite.ts';

/** Render-cache freshness of the server under test: short, so a copy goes stale in a test. */
const PAGE_FRESH_MS = 300;
/** The error page's heading (spec §8 "An error occured"). */
const ERROR_PAGE = /<h1[^>]*>\s*Une erreur est survenue\s*<\/h1>/;
/** A page's `<title>`. */
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

let sandbox: Sandbox;
let sandboxDir = '';
let shop: ShopProcess | undefined;
let base = '';
/** Listing categories: one read before the fault, two never read. */
let warmCategory = '';
let coldCategory = '';
let coldCategory2 = '';

interface TreeNode {
  url: string;
  is_visible: boolean;
  children: TreeNode[];
}

async function startShop(port: number): Promise<void> {
  shop = await startShopProcess(
    {
      ...process.env,
      UPSTREAM: 'sandbox',
      SANDBOX_PORT: String(SANDBOX_PORT),
      SANDBOX_DIR: sandboxDir,
      DIST_DIR,
      PAGE_FRESH_MS: String(PAGE_FRESH_MS),
      PAGE_STALE_MS: '0',
    },
    port,
  );
  base = shop.base;
}

/** A request, timed. */
async function timed(
  pathname: string,
  init: { method?: string; body?: string } = {},
): Promise<{ status: number; ms: number; text: string; headers: Headers }> {
  const started = performance.now();
  const response = await fetch(`${base}${pathname}`, {
    ...init,
    redirect: 'manual',
    headers: {
      Accept: init.method === 'POST' ? 'application/json' : 'text/html',
      'Accept-Encoding': 'identity',
      ...(init.method === 'POST' ? { 'Content-Type': 'application/json', Origin: base } : {}),
    },
  });
  const text = await response.text();
  return {
    status: response.status,
    ms: performance.now() - started,
    text,
    headers: response.headers,
  };
}

const api = (method: string, args: unknown[]) =>
  timed(`/api/bigcommerce/${method}`, { method: 'POST', body: JSON.stringify(args) });

/** Every upstream path down (reset or hang) while `run` runs; cleared after, whatever happens. */
async function whileDown<T>(mode: DownMode, run: () => Promise<T>): Promise<T> {
  sandbox.faults.add([{ down: mode, match: '/stores/' }]);
  try {
    return await run();
  } finally {
    sandbox.faults.clear();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  requireBuild();
  sandboxDir = mkdtempSync(path.join(tmpdir(), 'faults-'));
  sandbox = await startSandbox({ port: SANDBOX_PORT, dataDir: sandboxDir });
  await startShop(await freePort());
  // Leaf categories with products, from the sandbox's tree.
  const tree = (await (
    await fetch(`${sandbox.url}/stores/sandbox/v3/catalog/categories/tree`, {
      headers: { 'X-Auth-Token': sandbox.token },
    })
  ).json()) as { data: TreeNode[] };

  const leaves: string[] = [];
  const visit = (nodes: TreeNode[]) => {
    for (const node of nodes) {
      if (!node.is_visible) continue;
      if (node.children.length === 0) leaves.push(categoryPath(node.url));
      visit(node.children);
    }
  };
  visit(tree.data);
  [warmCategory = '', coldCategory = '', coldCategory2 = ''] = leaves;
  // Warm: the layout data, the redirect list, one listing view, one search, one API read.
  for (const warm of [`${warmCategory}?sort=2`, '/resultats-de-recherche/matelas']) {
    expect((await timed(warm)).status).toBe(200);
  }
  expect((await api('getCategoryTree', [])).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await shop?.stop();
  await sandbox.close();
  if (sandboxDir !== '') rmSync(sandboxDir, { recursive: true, force: true });
});

describe.each<DownMode>(['reset', 'hang'])('upstream down (%s)', (mode) => {
  test('static pages keep serving, and on-demand pages that need no upstream: a listing view never asked before renders from the release', async () => {
    const cold = mode === 'reset' ? coldCategory : coldCategory2;
    await whileDown(mode, async () => {
      for (const page of ['/', warmCategory, '/connexion', `${cold}?sort=3`]) {
        const reply = await timed(page);
        expect(reply.status, page).toBe(200);
        expect(reply.ms, page).toBeLessThan(1_000);
        expect(reply.text, page).not.toMatch(ERROR_PAGE);
      }
    });
  });

  test('a listing view and a search read before answer their cached copy', async () => {
    const [listing, search] = [
      await timed(`${warmCategory}?sort=2`),
      await timed('/resultats-de-recherche/matelas'),
    ];
    await sleep(PAGE_FRESH_MS + 50);
    await whileDown(mode, async () => {
      for (const [page, before] of [
        [`${warmCategory}?sort=2`, listing],
        ['/resultats-de-recherche/matelas', search],
      ] as const) {
        const reply = await timed(page);
        expect(reply.status, page).toBe(200);
        expect(reply.ms, page).toBeLessThan(2_000);
        expect(reply.text, page).not.toMatch(ERROR_PAGE);
        expect(titleOf(reply.text), page).toBe(titleOf(before.text));
      }
    });
  });

  test('an on-demand page with no cached copy answers the error page within 2 s', async () => {
    await whileDown(mode, async () => {
      for (const page of [`/resultats-de-recherche/couette-${mode}`]) {
        const reply = await timed(page);
        expect([502, 503, 504], page).toContain(reply.status);
        expect(reply.ms, page).toBeLessThan(2_000);
        expect(reply.text, page).toMatch(ERROR_PAGE);
        expect(reply.headers.get('cache-control'), page).toBe('no-store');
      }
    });
  });

  test('the API: a catalogue read answers its cached reply, others the normalised error within 3 s', async () => {
    await whileDown(mode, async () => {
      const tree = await api('getCategoryTree', []);
      expect(tree.status).toBe(200);
      expect(tree.ms).toBeLessThan(3_000);
      const search = await api('getProductsWithFilter', [{ searchTerm: `oreiller-${mode}` }]);
      expect(search.ms).toBeLessThan(3_000);
      expect(JSON.parse(search.text)).toEqual(
        mode === 'hang'
          ? { message: 'error.upstreamTimeout', statusCode: 504 }
          : { message: 'error.upstreamUnavailable', statusCode: 502 },
      );
      expect(search.status).toBe(mode === 'hang' ? 504 : 502);
      expect(search.headers.get('cache-control')).toBe('no-store');
    });
  });
});

test('the failures were logged one line each, without a stack', () => {
  const output = shop?.output() ?? '';
  // The server's lines are JSON (src/shop/config/log.ts); the others are the supervisor's.
  const lines = output
    .split('\n')
    .filter((line) => line.startsWith('{') && line.endsWith('}'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const failures = lines.filter(
    (line) =>
      line.msg === '[upstream] call failed' &&
      ['api', 'search', 'listing'].includes(String(line.scope)),
  );
  expect(failures.length).toBeGreaterThan(0);
  for (const line of failures) {
    expect(`${String(line.code)} ${String(line.status)}`).toMatch(
      /^(TIMEOUT|NETWORK_ERROR) 50[24]$/,
    );
    expect(line.reqId).toEqual(expect.any(String));
  }
  expect(lines.filter((line) => line.err !== undefined)).toEqual([]);
  expect(output).not.toMatch(/^\s+at /m);
});

test('recovery without restart: once upstream is back, the next requests succeed', async () => {
  await whileDown('hang', async () => {
    expect((await timed('/resultats-de-recherche/couette-retour')).status).toBeGreaterThanOrEqual(
      500,
    );
  });
  const results = await timed('/resultats-de-recherche/couette-retour');
  expect(results.status).toBe(200);
  expect(results.text).not.toMatch(ERROR_PAGE);
  const search = await api('getProductsWithFilter', [{ searchTerm: 'oreiller-retour' }]);
  expect(search.status).toBe(200);
  expect(JSON.parse(search.text)).toHaveProperty('data');
});

test('a process whose layout cannot be read answers an on-demand page with the error page and its status, never a 500', async () => {
  // The layout data is read once per process: a new one, with the banners hanging.
  sandbox.faults.add([{ match: '/stores/sandbox/v2/banners', down: 'hang' }]);
  const fresh = await startShopProcess(
    {
      ...process.env,
      UPSTREAM: 'sandbox',
      SANDBOX_PORT: String(SANDBOX_PORT),
      SANDBOX_DIR: sandboxDir,
      DIST_DIR,
    },
    await freePort(),
  );
  try {
    for (const page of [`${warmCategory}?sort=4`, '/resultats-de-recherche/couette-banniere']) {
      const reply = await fetch(`${fresh.base}${page}`);
      expect(reply.status, page).toBe(504);
      expect(await reply.text(), page).toMatch(ERROR_PAGE);
    }
  } finally {
    await fresh.stop();
    sandbox.faults.clear();
  }
});

test('a real server error (upstream answers 400: a bug, not a fault) answers the "An error occured" page, 500', async () => {
  sandbox.faults.add([{ match: '/stores/sandbox/v3/catalog/products', status: 400 }]);
  try {
    const reply = await timed('/resultats-de-recherche/erreur-du-serveur');
    expect(reply.status).toBe(500);
    expect(reply.text).toMatch(ERROR_PAGE);
    expect(reply.text).toContain('Veuillez revenir en arrière ou réessayer');
    expect(reply.text).toContain('href="/"');
  } finally {
    sandbox.faults.clear();
  }
});
