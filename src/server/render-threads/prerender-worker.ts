/**
 * A render thread of the build (parallel-prerender.ts): imports the build's pre-render bundle,
 * sets its app up the way Astro's own prerenderer does (the page styles and head scripts Astro
 * holds on the main thread, copied here), takes the main thread's data, then renders the pages
 * it is sent and answers each with its response's status, headers and bytes. Its fetches have
 * the build's deadlines (`FETCH_TIMEOUT_MS`: src/server/fetch-deadlines.ts), a thread having
 * its own fetch dispatcher.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  isMainThread,
  parentPort,
  receiveMessageOnPort,
  workerData,
  type MessagePort,
} from 'node:worker_threads';
import {
  adoptCatalogueRead,
  replaceCatalogueRead,
  type SettledCatalogueRead,
} from '../../shop/loaders/catalogue-prefetch.ts';
import type { CatalogueRead } from '../../shop/loaders/catalogue-source.ts';
import type { AddStaticImage, AstroAssetScope } from '../pictures/astro-asset.ts';
import { adoptSnapshot, type BuildSnapshot } from '../../shop/loaders/handoff.ts';
import { fetchTimeoutFromEnv, installFetchDeadlines } from '../fetch-deadlines.ts';
import { applyCatalogueChange, type CatalogueChange } from './thread-data.ts';

/** What the thread is started with. */
export interface ThreadData {
  /** The pre-render bundle's entry (file URL). */
  entry: string;
  /** Each page's key and styles (Astro's build internals, `pagesByKeys`). */
  styles: [string, unknown[]][];
  /** Astro's injected scripts (`settings.scripts`). */
  scripts: { stage: string; content: string }[];
  /** Where the thread registers the pictures its pages ask for. */
  images: MessagePort;
  /** Set to 1 by the main thread once it has answered a picture. */
  flag: Int32Array;
}

/** A picture registration (Astro's `addStaticImage` arguments). */
export interface ImageCall {
  options: Parameters<AddStaticImage>[0];
  hashProperties: unknown;
  fsPath: unknown;
}

export interface ThreadStart {
  type: 'start';
  snapshot: BuildSnapshot;
  catalogue: SettledCatalogueRead;
}

/** A page to render; `file`: where to write it (null: send the bytes back instead). */
export interface PageRequest {
  id: number;
  url: string;
  route: string;
  component: string;
  file: string | null;
}

/**
 * A kept thread's data brought to the main thread's after a publish changed it (render-pool.ts):
 * the catalogue as a change from the thread's copy, the content and layout when they changed.
 */
export interface ThreadUpdate {
  type: 'update';
  catalogue?: CatalogueChange;
  snapshot?: BuildSnapshot;
}

export type ThreadRequest =
  | { type: 'render'; pages: PageRequest[] }
  /** `keep`: the thread stays for the publisher (render-pool.ts). */
  | { type: 'finish'; keep: boolean }
  | ThreadUpdate;

/** A rendered page: written by the thread (no body), or its bytes; or why it failed. */
export type PageReply =
  | {
      type: 'page';
      id: number;
      status: number;
      statusText: string;
      headers: [string, string][];
      /** Null when the thread wrote the page itself (Astro then writes nothing). */
      body: ArrayBuffer | null;
    }
  | { type: 'error'; id: number; name: string; message: string; stack?: string };

export type ThreadReply =
  | { type: 'pages'; pages: PageReply[] }
  | { type: 'log'; event: unknown }
  | { type: 'finished'; referencedImages: string[] };

interface RouteData {
  route: string;
  component: string;
  prerender: boolean;
}

interface PrerenderBundle {
  app: {
    manifest: { routes: { routeData: RouteData }[]; entryModules: Record<string, string> };
    setInternals(internals: unknown): void;
    setOptions(options: unknown): void;
    render(request: Request, options: { routeData: RouteData }): Promise<Response>;
    routeCache: { clearAll(): void };
    /** Imports the module of a route's page (Astro's `BuildApp`). */
    getComponentByRoute(routeData: RouteData): Promise<unknown>;
  };
}

if (isMainThread || parentPort === null) {
  throw new Error('prerender-worker.ts runs as a render thread of the build');
}
// A thread has its own fetch dispatcher: its fetches get the build's deadlines too.
installFetchDeadlines(fetchTimeoutFromEnv(process.env));
const port = parentPort;
const data = workerData as ThreadData;
const post = (reply: ThreadReply, transfer: ArrayBuffer[] = []) => {
  port.postMessage(reply, transfer);
};

// Astro's picture list lives on the main thread: a page's picture is added there, and this
// thread waits for the URL Astro gives it (a few hundred calls a build: pictures recur).
const holder = globalThis as AstroAssetScope;
holder.astroAsset = {
  referencedImages: new Set<string>(),
  addStaticImage(options, hashProperties, fsPath) {
    Atomics.store(data.flag, 0, 0);
    const call: ImageCall = { options, hashProperties, fsPath };
    data.images.postMessage(call);
    Atomics.wait(data.flag, 0, 0);
    const answer = receiveMessageOnPort(data.images)?.message as
      { url: string; error?: undefined } | { error: string } | undefined;
    if (answer === undefined) throw new Error('the main thread did not answer a picture');
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.url;
  },
};

const bundle = (await import(data.entry)) as PrerenderBundle;
const { app } = bundle;
app.setInternals({
  pagesByKeys: new Map(data.styles.map(([key, styles]) => [key, { styles }])),
  entrySpecifierToBundleMap: new Map(Object.entries(app.manifest.entryModules)),
});
app.setOptions({
  settings: { scripts: data.scripts },
  logger: {
    options: {
      destination: {
        write(event: unknown) {
          post({ type: 'log', event });
          return true;
        },
      },
    },
  },
});
const routes = new Map(
  app.manifest.routes.map(({ routeData }) => [
    `${routeData.route}\n${routeData.component}`,
    routeData,
  ]),
);

const { promise: ready, resolve: started } = Promise.withResolvers<undefined>();

/** Folders this thread has made (or found): each is made once, not once a page. */
const folders = new Set<string>();

/** Writes a page where Astro would, synchronously: no hop through libuv's pool per file. */
function write(file: string, bytes: Uint8Array): void {
  const folder = path.dirname(file);
  if (!folders.has(folder)) {
    mkdirSync(folder, { recursive: true });
    folders.add(folder);
  }
  writeFileSync(file, bytes);
}

async function render(page: PageRequest): Promise<PageReply> {
  try {
    const routeData = routes.get(`${page.route}\n${page.component}`);
    if (routeData === undefined) throw new Error(`no route ${page.route} in the bundle`);
    const response = await app.render(new Request(page.url), { routeData });
    const head = {
      type: 'page' as const,
      id: page.id,
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers],
    };
    const body = response.body === null ? null : await response.arrayBuffer();
    // What Astro writes as is (a page of status 200 with a body): here; anything else it
    // handles itself (redirects, empty bodies).
    if (page.file !== null && body !== null && response.status === 200) {
      write(page.file, new Uint8Array(body));
      return { ...head, body: null };
    }
    return { ...head, body };
  } catch (error) {
    return {
      type: 'error',
      id: page.id,
      // Astro's error names say what happened (NoMatchingStaticPathFound: a page gone).
      name: error instanceof Error ? error.name : 'Error',
      message: error instanceof Error ? error.message : String(error),
      ...(error instanceof Error && error.stack !== undefined ? { stack: error.stack } : {}),
    };
  }
}

/** Pages waiting, rendered one after another; replies go back in batches (few wakes). */
const queue: PageRequest[] = [];
let running = false;
const REPLY_BATCH = 16;

async function drain(): Promise<void> {
  if (running) return;
  running = true;
  await ready;
  let replies: PageReply[] = [];
  const flush = () => {
    if (replies.length === 0) return;
    const transfer = replies.flatMap((r) => (r.type === 'page' && r.body !== null ? [r.body] : []));
    post({ type: 'pages', pages: replies }, transfer);
    replies = [];
  };
  while (queue.length > 0) {
    const page = queue.shift();
    if (page === undefined) break;
    replies.push(await render(page));
    if (replies.length >= REPLY_BATCH) flush();
    // Pages sent meanwhile are in the port's queue: let them in before the queue looks empty.
    if (queue.length === 0) {
      flush();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  flush();
  running = false;
}

/** This thread's copy of the catalogue read, which a kept thread's updates change. */
let catalogueRead: CatalogueRead | null = null;

/**
 * A publish's data: applied before the pages sent after it (messages arrive in order, and this
 * runs at once); a copy that cannot be brought up to date stops the thread, which fails the
 * publish (render-pool.ts).
 */
function update(message: ThreadUpdate): void {
  if (message.catalogue !== undefined) {
    if (catalogueRead === null) throw new Error('the render thread was given no catalogue');
    catalogueRead = applyCatalogueChange(catalogueRead, message.catalogue);
    replaceCatalogueRead(catalogueRead);
  }
  if (message.snapshot !== undefined) adoptSnapshot(message.snapshot);
  // getStaticPaths read the old data: run again on the next page, as on the main thread.
  app.routeCache.clearAll();
}

port.on('message', (message: ThreadStart | ThreadRequest) => {
  if (message.type === 'start') {
    adoptCatalogueRead(message.catalogue);
    catalogueRead = message.catalogue.read;
    adoptSnapshot(message.snapshot);
    started(undefined);
  } else if (message.type === 'update') {
    update(message);
  } else if (message.type === 'render') {
    queue.push(...message.pages);
    void drain();
  } else {
    void finish(message.keep);
  }
});

/**
 * What the main thread keeps of this thread's pages: the local pictures they showed (Astro
 * keeps those in the output). A thread kept for the publisher first imports every pre-rendered
 * page's module, as the kept build's main thread does (page-publisher.ts): Astro deletes the
 * bundle once the build is done, and a route none of whose pages this thread rendered has not
 * been imported here. A module that fails to import stops the thread (the build then fails).
 */
async function finish(keep: boolean): Promise<void> {
  if (keep) {
    await Promise.all(
      app.manifest.routes
        .filter(({ routeData }) => routeData.prerender)
        .map(({ routeData }) => app.getComponentByRoute(routeData)),
    );
  }
  post({
    type: 'finished',
    referencedImages: [...(holder.astroAsset?.referencedImages ?? [])],
  });
}
