/**
 * Renders the build's pages on a second core. Astro renders pre-rendered pages one after
 * another on the build's main thread; at 100,000 products that is most of the build. This
 * integration gives Astro a prerenderer (`setPrerenderer`, the hook adapters use to render
 * elsewhere) that keeps Astro's own for the main thread and adds render threads
 * (`BUILD_RENDER_THREADS`; by default one per core beyond the first, at most two), each running
 * the same pre-render bundle (prerender-worker.ts). Astro still decides the pages and collects
 * the pictures.
 *
 * - **One read of the data.** The main thread renders the first pages alone; once they have
 *   read the catalogue, the layout and the content (the build's hand-over slots,
 *   loaders/handoff.ts and catalogue-prefetch.ts), each thread is handed a copy, and only then
 *   takes pages. Every page of a release is rendered from the same data.
 * - **Few hand-overs.** Waking another thread costs the waker CPU time (0.1 to 1 ms on the
 *   2-core reference machine, as much as a third of a page), and a page's bytes handed over
 *   count against the main thread's heap: pages go to a thread in batches (those asked for in
 *   one turn of the event loop) and come back in batches, and a page of status 200 is written
 *   by the thread that rendered it, where Astro would (Astro, handed no body, then writes
 *   nothing). Anything else (a redirect, an endpoint) comes back whole and Astro writes it.
 * - **Pictures.** A picture a thread's page asks for is added to Astro's list on the main
 *   thread by a synchronous call (the thread waits on an `Atomics` flag), so the page gets the
 *   URL Astro emits.
 * - A page that fails on a thread, or a thread that stops, fails the build.
 * - **Kept for publishes.** A build kept to publish edits (render-pool.ts) keeps its threads
 *   once its pages are done, with their data, instead of stopping them: the publisher renders
 *   a publish's pages on them too (src/server/publish/publish-render.ts).
 * - **Unreachable pictures.** Once the pages are rendered, every remote picture they show is
 *   fetched once; one that cannot be is encoded from the shop's placeholder picture instead,
 *   and logged (`../pictures/picture-fallback.ts`): Astro's image step would fail the build.
 *
 * bench:build, 2 cores, 100,000 products: 288 → 213-222 s for 97,112 pages (3.3 → 5.7 GB peak).
 */
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { AstroConfig, AstroIntegration, AstroPrerenderer as Prerenderer } from 'astro';
import { astroAsset, currentAddStaticImage } from '../pictures/astro-asset.ts';
import { settledCatalogueRead } from '../../shop/loaders/catalogue-prefetch.ts';
import { buildSnapshot, handedOver, type BuildSnapshot } from '../../shop/loaders/handoff.ts';
import type { CatalogueRead } from '../../shop/loaders/catalogue-source.ts';
import {
  astroWillFetch,
  PLACEHOLDER_PICTURE,
  probeRemotePicture,
  productsShowing,
  replaceUnreachablePictures,
  setBuildPlaceholder,
} from '../pictures/picture-fallback.ts';
import { prerenderDir, prerenderEntry } from './prerender-entry.ts';
import {
  handOverRenderPool,
  renderThreadsWanted,
  type PoolPage,
  type RenderPool,
} from './render-pool.ts';
import { catalogueChange } from './thread-data.ts';
import { readEnvironment } from '../../shop/config/environment.ts';
import type {
  ImageCall,
  PageReply,
  PageRequest,
  ThreadData,
  ThreadReply,
  ThreadRequest,
  ThreadStart,
  ThreadUpdate,
} from './prerender-worker.ts';

/**
 * Pages a thread holds at once; a page Astro asks for beyond them renders on the main thread.
 * The main thread takes what the thread leaves, so both stay busy (bench:build, 100,000
 * products on 2 cores: each renders about half).
 */
const PAGES_PER_THREAD = 24;
/** Astro's pages in flight with threads (its `build.concurrency`): the threads' and 8 more. */
const pagesInFlight = (threads: number) => threads * PAGES_PER_THREAD + 8;
/** Render threads by default: each holds a copy of the data (about 2.5 GB at 100,000 products). */
const MAX_DEFAULT_THREADS = 2;

type RenderOptions = Parameters<Prerenderer['render']>[1];

/**
 * The number of render threads from `BUILD_RENDER_THREADS`, else one per core beyond the first,
 * at most MAX_DEFAULT_THREADS.
 */
export function renderThreads(
  value: string | undefined,
  cores = os.availableParallelism(),
): number {
  if (value === undefined || value === '') {
    return Math.min(MAX_DEFAULT_THREADS, Math.max(0, cores - 1));
  }
  if (!/^\d{1,2}$/.test(value)) {
    throw new Error(`BUILD_RENDER_THREADS must be a whole number from 0 to 99, not "${value}"`);
  }
  return Number(value);
}

interface BuildApp {
  manifest: { entryModules: Record<string, string> };
  getOptions(): {
    settings: { scripts: { stage: string; content: string }[] };
    allPages: Record<string, { key: string; styles: unknown[] }>;
    logger: { options: { destination: { write(event: unknown): unknown } } };
  };
}

interface Thread {
  worker: Worker;
  /** Pages sent and not answered yet. */
  busy: number;
  /** Pages asked for in this turn of the event loop, sent together (one wake of the thread). */
  outbox: PageRequest[];
}

/** The `.html` files of the public folder (relative, `/`-separated): Astro writes no page over one. */
export function publicPages(publicDir: string): Set<string> {
  if (!existsSync(publicDir)) return new Set();
  const files = readdirSync(publicDir, { recursive: true, encoding: 'utf8' });
  return new Set(
    files
      .filter((file) => file.endsWith('.html'))
      .map((file) => `/${file.split(path.sep).join('/')}`),
  );
}

interface Dirs {
  prerender: string;
  client: string;
  public: string;
  /** `config.image`: the picture hosts Astro's image step fetches from. */
  image: AstroConfig['image'] | null;
  /** Astro's cache of encoded pictures (`{config.cacheDir}/assets`). */
  assetsCache: string;
}

/**
 * Every remote picture the pages showed is fetched once; one that cannot be is encoded from
 * the shop's placeholder into the files its pages name, and logged with its products
 * (`../pictures/picture-fallback.ts`). Astro's image step then never meets a failed fetch.
 */
async function pictureFallback(dirs: Dirs): Promise<void> {
  const images = astroAsset().staticImages;
  if (images === undefined || images.size === 0 || dirs.image === null) return;
  const imageConfig = dirs.image;
  // Astro's step reads a source that is not remote as a file under its server root (the
  // pre-render folder); the public folder is where the placeholder is.
  const placeholder = path
    .relative(dirs.prerender, path.join(dirs.public, PLACEHOLDER_PICTURE))
    .split(path.sep)
    .join('/');
  const products = handedOver('catalogue')?.products ?? [];
  const owners = productsShowing(products);
  // A source that answers but is no raster picture, or does not decode, is the image
  // service's to replace during Astro's step.
  setBuildPlaceholder({ file: path.join(dirs.public, PLACEHOLDER_PICTURE), owners });
  let checked = 0;
  const started = performance.now();
  const failed = await replaceUnreachablePictures(
    images,
    placeholder,
    (src) => {
      checked++;
      return probeRemotePicture(src, imageConfig);
    },
    owners,
    (entry) => astroWillFetch(entry, dirs.assetsCache),
  );
  console.info(
    `[pictures] ${String(checked)} sources checked (the others are in Astro's cache) in ${String(Math.round(performance.now() - started))} ms, ${String(failed.length)} unreachable (the placeholder shown instead)`,
  );
}

function parallel(inner: Prerenderer, dirs: Dirs, count: number): Prerenderer {
  const { client: clientDir } = dirs;
  /** Read once: a page whose file the public folder holds is left to Astro (it warns). */
  let inPublic = new Set<string>();
  const threads: Thread[] = [];
  const pending = new Map<
    number,
    { resolve: (response: Response) => void; reject: (error: Error) => void }
  >();
  let nextId = 0;
  let onMain = 0;
  let onThread = 0;
  let failure: Error | null = null;
  /** Whether the threads have the data (null: not yet asked; false: they never will). */
  let fed: Promise<boolean> | null = null;
  let logger: ReturnType<BuildApp['getOptions']>['logger'] | null = null;
  /** The data the threads have: what they were fed, then what a kept pool's sync sent. */
  let synced: { read: CatalogueRead; snapshot: BuildSnapshot } | null = null;

  const fail = (error: Error) => {
    failure ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  const startThread = (app: BuildApp): Thread => {
    const options = app.getOptions();
    const images = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const data: ThreadData = {
      entry: prerenderEntry(dirs.prerender),
      styles: Object.values(options.allPages).map((page) => [page.key, page.styles]),
      scripts: options.settings.scripts.map(({ stage, content }) => ({ stage, content })),
      images: images.port2,
      flag,
    };
    const worker = new Worker(new URL('./prerender-worker.ts', import.meta.url), {
      workerData: data,
      transferList: [images.port2],
    });
    // A picture a thread's page asks for, registered with Astro's list here.
    images.port1.on('message', (call: ImageCall) => {
      try {
        const add = currentAddStaticImage();
        if (add === null) throw new Error('Astro is not collecting pictures');
        images.port1.postMessage({ url: add(call.options, call.hashProperties, call.fsPath) });
      } catch (error) {
        images.port1.postMessage({ error: String(error) });
      }
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    });
    images.port1.unref();
    const thread: Thread = {
      worker,
      busy: 0,
      outbox: [],
    };
    worker.on('message', (reply: ThreadReply) => {
      if (reply.type === 'log') {
        logger?.options.destination.write(reply.event);
        return;
      }
      if (reply.type !== 'pages') return;
      for (const page of reply.pages) settle(thread, page);
    });
    worker.on('error', (error: Error) => {
      fail(error);
    });
    worker.on('exit', (code) => {
      if (code !== 0) fail(new Error(`a render thread stopped with code ${String(code)}`));
    });
    return thread;
  };

  const settle = (thread: Thread, page: PageReply) => {
    const waiting = pending.get(page.id);
    if (waiting === undefined) return;
    pending.delete(page.id);
    thread.busy--;
    if (page.type === 'error') {
      const error = new Error(page.message);
      error.name = page.name;
      if (page.stack !== undefined) error.stack = page.stack;
      waiting.reject(error);
      return;
    }
    onThread++;
    // A page the thread wrote itself comes back without a body: Astro then writes no file.
    waiting.resolve(
      new Response(page.body, {
        status: page.status,
        statusText: page.statusText,
        headers: page.headers,
      }),
    );
  };

  /** Hands every thread the main thread's data once its pages have read it all. */
  const feed = async (): Promise<boolean> => {
    const snapshot = buildSnapshot();
    if (snapshot === null) return false;
    const catalogue = await settledCatalogueRead();
    if (catalogue === null) return false;
    for (const thread of threads) {
      const start: ThreadStart = { type: 'start', snapshot, catalogue };
      thread.worker.postMessage(start);
    }
    synced = { read: catalogue.read, snapshot };
    return true;
  };

  /**
   * Takes what a thread's pages computed that the main thread keeps, then stops the thread,
   * or leaves it running when `keep` (a kept pool's).
   */
  const finish = async (thread: Thread, keep: boolean): Promise<string[]> => {
    const { worker } = thread;
    const kept = await new Promise<Extract<ThreadReply, { type: 'finished' }> | null>((resolve) => {
      const onExit = () => {
        resolve(null);
      };
      const onMessage = (reply: ThreadReply) => {
        if (reply.type !== 'finished') return;
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        resolve(reply);
      };
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      const message: ThreadRequest = { type: 'finish', keep };
      worker.postMessage(message);
    });
    if (!keep) {
      worker.removeAllListeners('exit');
      await worker.terminate();
    }
    if (kept === null) throw failure ?? new Error('a render thread stopped before it finished');
    return kept.referencedImages;
  };

  /** Sends a page to a thread (with the others asked for in this turn of the event loop). */
  const send = (thread: Thread, page: PoolPage) =>
    new Promise<Response>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      thread.busy++;
      if (thread.outbox.length === 0) {
        setImmediate(() => {
          const message: ThreadRequest = { type: 'render', pages: thread.outbox };
          thread.outbox = [];
          thread.worker.postMessage(message);
        });
      }
      thread.outbox.push({ id, ...page });
    });

  /** The threads, for the publisher once the build is done (render-pool.ts). */
  const keptPool = (): RenderPool => {
    // Never what keeps the process alive: the publisher's IPC channel does.
    for (const { worker } of threads) worker.unref();
    const kept = [...threads];
    return {
      size: kept.length,
      pagesPerThread: PAGES_PER_THREAD,
      async sync() {
        if (failure) throw failure;
        if (synced === null) throw new Error('the render threads were never given the data');
        const read = (await settledCatalogueRead())?.read;
        if (read === undefined) throw new Error('the build has no catalogue read to render from');
        const snapshot = buildSnapshot() ?? synced.snapshot;
        const update: ThreadUpdate = { type: 'update' };
        if (read !== synced.read) update.catalogue = catalogueChange(synced.read, read);
        const keys = Object.keys(snapshot) as (keyof BuildSnapshot)[];
        if (keys.some((key) => snapshot[key] !== synced?.snapshot[key])) update.snapshot = snapshot;
        if (update.catalogue === undefined && update.snapshot === undefined) return;
        // Ahead of any page sent after it: a thread applies it before rendering them.
        for (const { worker } of kept) worker.postMessage(update);
        synced = { read, snapshot };
      },
      render(index, page) {
        const thread = kept[index];
        if (failure) return Promise.reject(failure);
        if (thread === undefined) return Promise.reject(new Error(`no render thread ${index}`));
        return send(thread, page);
      },
      async stop() {
        for (const { worker } of kept) worker.removeAllListeners('exit');
        await Promise.all(kept.map(({ worker }) => worker.terminate()));
      },
    };
  };

  const renderOn = (thread: Thread, request: Request, routeData: RenderOptions['routeData']) =>
    send(thread, {
      url: request.url,
      route: routeData.route,
      component: routeData.component,
      file: routeData.type === 'page' ? fileOf(new URL(request.url)) : null,
    });

  /**
   * The file of a page Astro would write (`build.format: 'file'`: the request's path, which
   * ends in `.html`), for the thread to write itself; null for anything unusual, which the
   * main thread writes the way Astro does.
   */
  const fileOf = (url: URL): string | null => {
    const { pathname } = url;
    if (!/^\/[\w./-]*\.html$/.test(pathname) || pathname.includes('..')) return null;
    return inPublic.has(pathname) ? null : path.join(clientDir, pathname);
  };

  return {
    name: 'literie:parallel-prerender',
    async setup() {
      await inner.setup?.();
      const app = (inner as Prerenderer & { app?: BuildApp }).app;
      if (app === undefined) throw new Error("Astro's prerenderer has no app to share");
      logger = app.getOptions().logger;
      inPublic = publicPages(dirs.public);
      for (let i = 0; i < count; i++) threads.push(startThread(app));
    },
    getStaticPaths: () => inner.getStaticPaths(),
    async render(request, options) {
      if (failure) throw failure;
      // Pages collecting incremental-build data stay on the main thread, which collects it.
      if (threads.length > 0 && options.collectMetadata !== true) {
        if (fed === null && buildSnapshot() !== null) fed = feed();
        if (fed !== null && (await fed)) {
          const free = threads.find((t) => t.busy < PAGES_PER_THREAD);
          if (free) return renderOn(free, request, options.routeData);
        }
      }
      onMain++;
      return inner.render(request, options);
    },
    async teardown() {
      // The local pictures the threads' pages showed, which Astro keeps in the output.
      const keep = renderThreadsWanted() && threads.length > 0 && synced !== null;
      const referenced = await Promise.all(threads.map((thread) => finish(thread, keep)));
      const registry = astroAsset();
      for (const file of referenced.flat()) registry.referencedImages?.add(file);
      // A build kept to publish edits keeps its threads, with their data (render-pool.ts).
      if (keep) handOverRenderPool(keptPool());
      threads.length = 0;
      await inner.teardown?.();
      if (failure) throw failure;
      // Before Astro's image step, which fails the build on a picture it cannot fetch.
      await pictureFallback(dirs);
      // One line, like the catalogue's (printed whatever Astro's log level).
      console.info(
        `[prerender] ${String(onThread)} of ${String(onThread + onMain)} pages rendered by ${String(count)} render thread${count === 1 ? '' : 's'}, the others by the main thread`,
      );
    },
  };
}

/**
 * The integration: from `astro:build:start`, Astro's prerenderer with `threads` render threads
 * beside it (none: Astro's own renders every page), and the pictures that cannot be fetched
 * replaced by the placeholder before Astro's image step.
 */
export function parallelPrerender(
  threads = renderThreads(readEnvironment(['BUILD_RENDER_THREADS']).BUILD_RENDER_THREADS),
): AstroIntegration {
  const dirs: Dirs = { prerender: '', client: '', public: '', image: null, assetsCache: '' };
  let setLater: ((prerenderer: (inner: Prerenderer) => Prerenderer) => void) | null = null;
  return {
    name: 'parallel-prerender',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        // Enough pages in flight for the threads to take them in batches.
        if (threads > 0) updateConfig({ build: { concurrency: pagesInFlight(threads) } });
      },
      'astro:config:done': ({ config }) => {
        dirs.prerender = prerenderDir(fileURLToPath(config.build.server));
        dirs.client = fileURLToPath(config.build.client);
        dirs.public = fileURLToPath(config.publicDir);
        dirs.image = config.image;
        dirs.assetsCache = fileURLToPath(new URL('assets/', config.cacheDir));
      },
      // Set with no render thread too: its teardown puts the placeholder in for the pictures
      // that cannot be fetched (pictureFallback), before Astro's image step.
      'astro:build:start': ({ setPrerenderer }) => {
        if (
          threads > 0 &&
          !existsSync(fileURLToPath(new URL('./prerender-worker.ts', import.meta.url)))
        ) {
          throw new Error('parallel-prerender: prerender-worker.ts is missing beside it');
        }
        setLater = setPrerenderer;
      },
      // Set once Vite's build config is made: with an adapter that resolves its own entry
      // (the Node adapter) and a prerenderer set, Astro leaves its pre-render entry out of the
      // bundle, taking the prerenderer for one that renders elsewhere. This one renders with
      // Astro's own entry, which the threads import too; Astro reads the prerenderer only when
      // it generates the pages.
      'astro:build:setup': ({ target }) => {
        if (target !== 'server' || setLater === null) return;
        setLater((inner) => parallel(inner, dirs, threads));
        setLater = null;
      },
    },
  };
}
