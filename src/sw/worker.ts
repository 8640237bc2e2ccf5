/**
 * The shop's service worker (spec §7: `/sw.js`, scope `/`), bundled by
 * `src/integrations/service-worker.ts` into `dist/client/sw.js` with its build's version and
 * precache list. Decisions come from `strategy.ts`.
 *
 * Updates: each build's worker differs (its version), so the browser installs it at the next
 * page load (the server sends `/sw.js` with `no-cache`). The new worker precaches its build's
 * assets, takes over at once and deletes the caches of earlier builds, pages included: a page
 * kept by an earlier build, whose scripts are no longer precached, is never served offline with
 * another build's assets. Taking over at once is safe: hashed asset URLs are exact, so a page
 * of the previous build still open asks for its own assets, which the network serves (the
 * server keeps the previous release's `/_astro/` files).
 */
import {
  cacheNames,
  keepablePage,
  offlineAnswer,
  OFFLINE_PATH,
  PAGE_CACHE_LIMIT,
  staleCaches,
  strategyFor,
  type Strategy,
} from './strategy.ts';

declare const __SW_VERSION__: string;
declare const __SW_PRECACHE__: readonly string[];

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(reply: Promise<Response> | Response): void;
}
interface WorkerScope {
  readonly location: { readonly origin: string };
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}

const worker = self as unknown as WorkerScope;
const names = cacheNames(__SW_VERSION__);

worker.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(names.assets);
      // `reload`: never an older copy from the HTTP cache (the offline page is revalidated).
      await cache.addAll(__SW_PRECACHE__.map((path) => new Request(path, { cache: 'reload' })));
      await worker.skipWaiting();
    })(),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const stale = staleCaches(await caches.keys(), __SW_VERSION__);
      await Promise.all(stale.map((name) => caches.delete(name)));
      await worker.clients.claim();
    })(),
  );
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  const strategy = strategyFor(
    { method: request.method, url: request.url, mode: request.mode },
    worker.location.origin,
  );
  if (strategy === 'asset') event.respondWith(asset(request));
  else if (strategy !== 'network') event.respondWith(page(event, strategy));
});

/** A hashed asset: the precache, else the network (then kept: it never changes). */
async function asset(request: Request): Promise<Response> {
  const cache = await caches.open(names.assets);
  const cached = await cache.match(request);
  if (cached) return cached;
  const reply = await fetch(request);
  if (reply.ok && reply.type === 'basic') await cache.put(request, reply.clone());
  return reply;
}

/**
 * A page load: the network, kept when it may be (public pages only); when the network fails,
 * what `offlineAnswer` allows: the kept copy, else the offline page (never kept under this URL).
 */
async function page(event: FetchEvent, strategy: Strategy): Promise<Response> {
  const { request } = event;
  const answer = offlineAnswer(strategy);
  try {
    const reply = await fetch(request);
    if (answer.kept && keepablePage(reply)) event.waitUntil(keep(request, reply.clone()));
    return reply;
  } catch (error) {
    if (answer.kept) {
      const kept = await (await caches.open(names.pages)).match(request);
      if (kept) return kept;
    }
    if (answer.offlinePage) {
      const offline = await caches.match(OFFLINE_PATH, { cacheName: names.assets });
      if (offline) return offline;
    }
    throw error;
  }
}

/** Keeps a page, the latest `PAGE_CACHE_LIMIT` only. */
async function keep(request: Request, reply: Response): Promise<void> {
  const pages = await caches.open(names.pages);
  await pages.delete(request);
  await pages.put(request, reply);
  const keys = await pages.keys();
  const over = keys.length - PAGE_CACHE_LIMIT;
  await Promise.all(keys.slice(0, Math.max(0, over)).map((key) => pages.delete(key)));
}
