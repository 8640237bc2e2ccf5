/**
 * A publish's pages rendered on the build's render threads (src/server/render-threads/
 * render-pool.ts, src/server/publish/publish-render.ts): the build's prerenderer
 * (parallel-prerender.ts, its integration's own hooks) runs a real render thread
 * (prerender-worker.ts) over a small pre-render bundle written here, whose page `/p/{id}`
 * shows product `id` of the catalogue handed over; a build asked to keep its threads hands them
 * to the publisher (page-publisher.ts). Then:
 * - a publish of many pages after an edit renders them on the main thread and the thread,
 *   each from the edited catalogue (the thread's copy brought up to date), writes exactly the
 *   pages named, removes those gone, and leaves nothing else behind; a route whose pages the
 *   thread never rendered during the build renders there too, though Astro deleted the bundle
 *   (the kept thread imported every page's module before);
 * - a thread that dies during a publish fails it: no page of the publish is written (the old
 *   ones stay whole, no rendering file is left), and the kept build answers `publish-failed`
 *   with `dataChanged` (the supervisor then builds in full).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroIntegration, AstroPrerenderer } from 'astro';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { parallelPrerender } from '../../src/server/render-threads/parallel-prerender.ts';
import {
  keepRenderThreads,
  takeRenderPool,
  type RenderPool,
} from '../../src/server/render-threads/render-pool.ts';
import {
  createPagePublisher,
  type PagePublisher,
  type PrerenderApp,
} from '../../src/server/publish/page-publisher.ts';
import { handleRequest } from '../../src/server/publish/publisher-loop.ts';
import type { PublishState } from '../../src/server/publish/publish-data.ts';
import type { CapturedPictures } from '../../src/server/publish/publish-pictures.ts';
import {
  adoptCatalogueRead,
  dropCatalogueRead,
  replaceCatalogueRead,
} from '../../src/shop/loaders/catalogue-prefetch.ts';
import type { CatalogueRead } from '../../src/shop/loaders/catalogue-source.ts';
import { handOver } from '../../src/shop/loaders/handoff.ts';

const ORIGIN = 'http://shop.test';

/**
 * The bundle: two routes, `/p/{id}` and `/q/{id}`, each showing product `id` of the catalogue
 * and where it rendered, from its page module, imported when first rendered (as Astro's are).
 */
const BUNDLE = `
import { isMainThread } from 'node:worker_threads';
const CATALOGUE = Symbol.for('literie.catalogue-prefetch');
const route = (letter) => ({
  route: '/' + letter + '/[id]',
  component: 'src/pages/' + letter + '/[id].astro',
  type: 'page',
  prerender: true,
  pattern: new RegExp('^\\\\/' + letter + '\\\\/([^/]+?)\\\\/?$'),
});
const page = (routeData) =>
  import(new URL('./' + routeData.route.split('/')[1] + '-page.mjs', import.meta.url).href);
export const app = {
  manifest: { routes: [{ routeData: route('p') }, { routeData: route('q') }], entryModules: {} },
  setInternals() {},
  setOptions() {},
  routeCache: { clearAll() {} },
  getComponentByRoute: (routeData) => page(routeData),
  async render(request, { routeData }) {
    const { show } = await page(routeData);
    const id = Number(/^\\/[pq]\\/(\\d+)\\.html$/.exec(new URL(request.url).pathname)?.[1]);
    const read = await globalThis[CATALOGUE].read;
    const product = read.products.find((p) => p.id === id);
    if (product === undefined) {
      const error = new Error('no page ' + id);
      error.name = 'NoMatchingStaticPathFound';
      throw error;
    }
    if (product.name === 'crash' && !isMainThread) {
      setImmediate(() => { throw new Error('the render thread crashed'); });
      return new Promise(() => {});
    }
    return new Response(show(product.name, isMainThread ? 'main' : 'a thread'));
  },
};
`;
const PAGE = (letter: string) =>
  `export const show = (name, where) => '${letter === 'p' ? '' : 'q: '}' + name + ' rendered on ' + where;\n`;

type Product = CatalogueRead['products'][number];
const product = (id: number, name: string) => ({ id, name }) as unknown as Product;
const catalogue = (products: Product[]): CatalogueRead => ({
  products,
  categories: [],
  brands: [],
  ms: 0,
});
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const pathOf = (id: number) => `/p/${String(id)}`;

let root = '';
let client = '';
let pool: RenderPool | null = null;
let publisher: PagePublisher;
let bundleApp: PrerenderApp;

const page = (id: number) => readFileSync(path.join(client, 'p', `${String(id)}.html`), 'utf8');
/** Every file of the client folder, relative. */
const files = () =>
  readdirSync(client, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.includes('.'))
    .sort();

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'publish-threads-'));
  client = path.join(root, 'client');
  const server = path.join(root, 'server');
  const prerender = path.join(server, '.prerender');
  for (const dir of [client, prerender, path.join(root, 'public')]) {
    mkdirSync(dir, { recursive: true });
  }
  const entry = path.join(prerender, 'prerender-entry.test.mjs');
  await writeFile(entry, BUNDLE);
  for (const letter of ['p', 'q']) {
    await writeFile(path.join(prerender, `${letter}-page.mjs`), PAGE(letter));
  }
  bundleApp = ((await import(pathToFileURL(entry).href)) as { app: PrerenderApp }).app;

  // What the build's first pages read: the catalogue, the content and the layout.
  adoptCatalogueRead({
    connection: 'test',
    read: catalogue(ids(1, 300).map((id) => product(id, `old ${String(id)}`))),
  });
  handOver('site-content', {} as never);
  handOver('layout-data', {} as never);

  // The build: Astro's hooks, as it calls them, with a prerenderer of its own inside.
  const integration: AstroIntegration = parallelPrerender(1);
  const hooks = integration.hooks as Record<string, (params: unknown) => unknown>;
  const dirUrl = (dir: string) => pathToFileURL(`${dir}/`);
  await hooks['astro:config:done']?.({
    config: {
      build: { server: dirUrl(server), client: dirUrl(client) },
      publicDir: dirUrl(path.join(root, 'public')),
      image: null,
      cacheDir: dirUrl(path.join(root, 'cache')),
    },
  });
  const set: { wrap?: (inner: AstroPrerenderer) => AstroPrerenderer } = {};
  await hooks['astro:build:start']?.({
    setPrerenderer: (factory: (inner: AstroPrerenderer) => AstroPrerenderer) => {
      set.wrap = factory;
    },
  });
  await hooks['astro:build:setup']?.({ target: 'server' });
  const { wrap } = set;
  if (wrap === undefined) throw new Error('the integration set no prerenderer');
  const routeData = bundleApp.manifest.routes[0]?.routeData;
  const inner = {
    name: 'astro',
    app: {
      manifest: { entryModules: {} },
      getOptions: () => ({
        settings: { scripts: [] },
        allPages: {},
        logger: { options: { destination: { write: () => true } } },
      }),
    },
    setup: () => undefined,
    getStaticPaths: () => Promise.resolve([]),
    render: (request: Request) => bundleApp.render(request, { routeData: routeData as never }),
    teardown: () => undefined,
  } as unknown as AstroPrerenderer;
  const prerenderer = wrap(inner);
  keepRenderThreads();
  await prerenderer.setup?.();
  // The build's pages (some on the thread, which writes them itself).
  // This prerenderer answers Responses (Astro's type allows a result of another shape).
  const built = (await Promise.all(
    ids(1, 300).map((id) =>
      prerenderer.render(new Request(`${ORIGIN}/p/${String(id)}.html`), {
        routeData: routeData as never,
      }),
    ),
  )) as Response[];
  for (const [index, response] of built.entries()) {
    if (response.body === null) continue;
    await writeFile(path.join(client, 'p', `${String(index + 1)}.html`), await response.text());
  }
  await prerenderer.teardown?.();
  pool = takeRenderPool();
  // What the capture does on the main thread (page-publisher.ts); then Astro deletes the bundle.
  await Promise.all(
    bundleApp.manifest.routes.map(({ routeData }) => bundleApp.getComponentByRoute(routeData)),
  );
  rmSync(prerender, { recursive: true, force: true });

  publisher = createPagePublisher({
    app: bundleApp,
    clientDir: client,
    origin: ORIGIN,
    pictures: {
      addStaticImage: () => '/_astro/x.webp',
      imageConfig: {} as CapturedPictures['imageConfig'],
      assetsDir: '_astro',
    },
    threads: pool,
  });
}, 60_000);

afterAll(async () => {
  await pool?.stop();
  dropCatalogueRead();
  delete (globalThis as { astroAsset?: unknown }).astroAsset;
  rmSync(root, { recursive: true, force: true });
});

describe('a publish rendered on the render threads', () => {
  test('the build hands its thread over, and the pages it rendered are the build’s', () => {
    expect(pool?.size).toBe(1);
    const where = ids(1, 300).map((id) => page(id).replace(`old ${String(id)} rendered on `, ''));
    expect(new Set(where)).toEqual(new Set(['main', 'a thread']));
  });

  test('after an edit, the pages named render on both, from the edited data; the gone ones are removed', async () => {
    // Products 1 to 250 renamed, 251 to 300 deleted; page 300 is not named (left as it was).
    // The route /q, whose pages the build did not render, renders from its kept module.
    replaceCatalogueRead(catalogue(ids(1, 250).map((id) => product(id, `new ${String(id)}`))));
    publisher.dataChanged();
    const before = files();
    const qPaths = ids(1, 100).map((id) => `/q/${String(id)}`);
    const result = await publisher.publish({
      render: [...ids(1, 299).map(pathOf), ...qPaths],
      remove: [],
    });
    expect(result.written).toEqual([...ids(1, 250).map(pathOf), ...qPaths]);
    expect(result.removed).toEqual(ids(251, 299).map(pathOf));
    const qShown = ids(1, 100).map((id) =>
      readFileSync(path.join(client, 'q', `${String(id)}.html`), 'utf8'),
    );
    expect(qShown.filter((html) => html.endsWith('on a thread')).length).toBeGreaterThan(0);
    for (const [index, html] of qShown.entries()) {
      expect(html).toMatch(new RegExp(`^q: new ${String(index + 1)} rendered on `));
    }
    const shown = ids(1, 250).map(page);
    for (const [index, html] of shown.entries()) {
      expect(html).toMatch(new RegExp(`^new ${String(index + 1)} rendered on (main|a thread)$`));
    }
    // Both rendered a good share.
    const onThread = shown.filter((html) => html.endsWith('a thread')).length;
    expect(onThread).toBeGreaterThan(50);
    expect(onThread).toBeLessThan(250);
    expect(page(300)).toMatch(/^old 300 /);
    // Exactly those files: the removed gone, nothing left beside the pages.
    const gone = new Set(ids(251, 299).map((id) => `p/${String(id)}.html`));
    const added = ids(1, 100).map((id) => `q/${String(id)}.html`);
    expect(files()).toEqual([...before.filter((file) => !gone.has(file)), ...added].sort());
  });

  test('a thread that dies fails the publish: no page of it written, `publish-failed` with the data changed', async () => {
    const before = files().map((file) => [file, readFileSync(path.join(client, file), 'utf8')]);
    const crashing = catalogue(ids(1, 250).map((id) => product(id, 'crash')));
    replaceCatalogueRead(crashing);
    publisher.dataChanged();
    await expect(
      publisher.publish({ render: ids(1, 250).map(pathOf), remove: [] }),
    ).rejects.toThrow(/render thread/);
    expect(files().map((file) => [file, readFileSync(path.join(client, file), 'utf8')])).toEqual(
      before,
    );

    // The kept build's answer: the pages may be behind the data, so the supervisor builds in full.
    const state = { catalogue: crashing } as PublishState;
    const reply = await handleRequest(
      { type: 'publish', id: 7, edits: [{ resource: 'product', id: 1 }] },
      {
        publisher,
        data: {
          current: () => Promise.resolve(state),
          apply: () => Promise.resolve({ before: state, after: state }),
        },
        decide: () => ({
          kind: 'partial',
          render: ids(1, 250).map(pathOf),
          remove: [],
          pageSetChanged: false,
        }),
        send: vi.fn(),
        pages: new Set(),
        sitemaps: null,
        listings: null,
      },
      { sitemaps: false },
    );
    expect(reply).toMatchObject({ type: 'publish-failed', id: 7, dataChanged: true });
    expect(files().map((file) => [file, readFileSync(path.join(client, file), 'utf8')])).toEqual(
      before,
    );
  });
});
