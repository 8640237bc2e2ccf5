/**
 * Renders chosen pages of a finished build again, with the same code that rendered them: Astro's
 * pre-render app, kept alive in the build process once `astro build` is done. A page rendered
 * here has the bytes the build would give it from the same data (the same bundle, route table,
 * styles and scripts), so a publish can rewrite the few pages an edit touches instead of
 * building the whole site.
 *
 * `prerenderAppCapture()` is an integration: when the build has written its pages, and before
 * Astro deletes the pre-render bundle, it imports the bundle's entry (the module instance the
 * build used, from Node's module cache) and keeps its `app`. `createPagePublisher` then renders
 * paths through it into the build's client folder: each file written beside its final name,
 * then renamed over it, so a reader sees the old page or the new one, whole. The storefront
 * server sees the new file at its next look at the disk (static-files.ts: at most a second).
 * Pictures are the build's too: the capture keeps Astro's picture registration, and the
 * publisher puts it back, writing a picture the build never showed before the page that shows
 * it (publish-pictures.ts).
 */
import { renameSync, rmSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';
import { prerenderDir, prerenderEntry } from '../render-threads/prerender-entry.ts';
import type { RenderPool } from '../render-threads/render-pool.ts';
import { discard, renderingFile, renderPages, type PageJob } from './publish-render.ts';
import { PRECOMPRESSED } from '../encoding.ts';
import type { PictureEntry } from '../../shop/loaders/listing-store.ts';
import { currentAddStaticImage, type AddStaticImage } from '../pictures/astro-asset.ts';
import { canonicalPath } from '../../lib/commerce/page-path.ts';
import { handedOver } from '../../shop/loaders/handoff.ts';
import { productsShowing } from '../pictures/picture-fallback.ts';
import { isShopRoute } from '../../lib/shop-routes.ts';
import {
  installPicturePublisher,
  type CapturedPictures,
  type PicturePublisher,
} from './publish-pictures.ts';

/** The part of Astro's route data the publisher reads. */
export interface PublishedRoute {
  route: string;
  /** The page's source file (a render thread finds the route by it and `route`). */
  component: string;
  type: string;
  prerender: boolean;
  pattern: RegExp;
}

/** The part of Astro's pre-render app (`BuildApp`) the publisher uses. */
export interface PrerenderApp {
  manifest: { routes: readonly { routeData: PublishedRoute }[] };
  render(request: Request, options: { routeData: PublishedRoute }): Promise<Response>;
  /** Imports the module of a route's page (Astro's `BuildApp`). */
  getComponentByRoute(routeData: PublishedRoute): Promise<unknown>;
  routeCache: { clearAll(): void };
}

export interface PrerenderCapture {
  integration: AstroIntegration;
  /** The app, once the build has generated its pages; null before (or if it could not). */
  app(): PrerenderApp | null;
  /** The site's origin the build rendered pages under (`site`, else Astro's default). */
  origin(): string;
  /**
   * Writes the sitemaps again for this set of pages (shop paths), the way the build's sitemap
   * integration did at its end; null when the build has none.
   */
  sitemaps(): ((paths: readonly string[]) => Promise<void>) | null;
  /** The pages the build wrote, as shop paths (once it is done). */
  builtPages(): string[];
  /** Astro's picture registration and image config, kept from the build (publish-pictures.ts). */
  pictures(): CapturedPictures | null;
}

type BuildDoneHook = (params: {
  dir: URL;
  pages: { pathname: string }[];
  logger: unknown;
}) => unknown;

function isPrerenderApp(value: unknown): value is PrerenderApp {
  if (typeof value !== 'object' || value === null) return false;
  const app = value as Partial<PrerenderApp>;
  return (
    typeof app.render === 'function' &&
    typeof app.getComponentByRoute === 'function' &&
    Array.isArray(app.manifest?.routes) &&
    typeof app.routeCache?.clearAll === 'function'
  );
}

/** Astro's name of a page in `astro:build:done` (`c/matelas`, '' for the home) as a shop path. */
const shopPathOf = (pathname: string): string => `/${pathname.replace(/\/$/, '')}`;

export function prerenderAppCapture(): PrerenderCapture {
  let app: PrerenderApp | null = null;
  let origin = 'http://localhost:4321';
  let sitemapHook: BuildDoneHook | null = null;
  let done: { dir: URL; logger: unknown; pages: string[] } | null = null;
  let image: Pick<CapturedPictures, 'imageConfig' | 'assetsDir'> | null = null;
  let addStaticImage: AddStaticImage | null = null;
  return {
    app: () => app,
    pictures: () => (image && addStaticImage ? { ...image, addStaticImage } : null),
    origin: () => origin,
    builtPages: () => done?.pages ?? [],
    sitemaps: () => {
      const hook = sitemapHook;
      const build = done;
      if (hook === null || build === null) return null;
      return async (paths) => {
        // The integration takes Astro's names and sorts the URLs itself.
        const pages = paths.map((p) => ({ pathname: p.slice(1) }));
        const out = path.resolve(fileURLToPath(build.dir));
        // It streams its files: written beside the client folder, then renamed into it, so a
        // crawler reads the old list or the new one, whole.
        const staging = await mkdtemp(path.join(path.dirname(out), '.sitemaps-'));
        try {
          await hook({ dir: pathToFileURL(`${staging}/`), pages, logger: build.logger });
          const names = await readdir(staging);
          // The integration logs its failures and returns.
          if (names.length === 0) throw new Error('the sitemap integration wrote no file');
          for (const name of names) renameSync(path.join(staging, name), path.join(out, name));
          await dropSitemapCopies(out);
        } finally {
          await rm(staging, { recursive: true, force: true });
        }
      };
    },
    integration: {
      name: 'page-publisher-capture',
      hooks: {
        'astro:config:done': ({ config }) => {
          // What Astro's build renders pages under (core/build: site's origin, else the port).
          origin = config.site
            ? new URL(config.site).origin
            : `http://localhost:${config.server.port}`;
          image = { imageConfig: config.image, assetsDir: config.build.assets };
          const sitemap = config.integrations.find((i) => i.name === '@astrojs/sitemap');
          const hook = sitemap?.hooks['astro:build:done'] as BuildDoneHook | undefined;
          sitemapHook = hook ?? null;
        },
        // Once the server bundle is built and before pages are: Astro's picture registration
        // exists then, and is removed once the build has encoded its pictures.
        'astro:build:ssr': () => {
          addStaticImage = currentAddStaticImage();
        },
        'astro:build:done': ({ dir, pages, logger }) => {
          done = { dir, logger, pages: pages.map((p) => shopPathOf(p.pathname)) };
        },
        'astro:build:generated': async ({ dir }) => {
          const entry = prerenderEntry(
            prerenderDir(path.join(path.dirname(dir.pathname), 'server')),
          );
          const module = (await import(entry)) as {
            app?: unknown;
          };
          if (!isPrerenderApp(module.app)) {
            throw new Error(`the pre-render entry ${entry} has no app to render with`);
          }
          // Every page's module, now: Astro deletes the bundle's folder next, and a route whose
          // pages were all rendered on a render thread (parallel-prerender.ts) has not been
          // imported on this one.
          const captured = module.app;
          await Promise.all(
            captured.manifest.routes
              .filter(({ routeData }) => routeData.prerender)
              .map(({ routeData }) => captured.getComponentByRoute(routeData)),
          );
          app = captured;
        },
      },
    },
  };
}

/**
 * Why the publisher must not write or remove the file of `pathname` through `route`, or null.
 * A page's file belongs to one canonical path, which belongs to one route: a path that is not
 * canonical (`/c/../panier`, `/Cgv`, `/a//b`), that names `index` (`/index` is the file of `/`)
 * or whose first segment is a route of the shop that `route` is not (a content page `/panier`
 * through `/[slug]`) is another page's. Data is screened before (`src/lib/shop-routes.ts`);
 * this is the publisher's own last check.
 */
export function publishRefusal(
  pathname: string,
  route: Pick<PublishedRoute, 'route'>,
): string | null {
  if (canonicalPath(pathname) !== pathname) return 'not a canonical path';
  if (pathname === '/') return route.route === '/' ? null : `/ is not a page of ${route.route}`;
  const segments = pathname.slice(1).split('/');
  if (segments.includes('index')) return 'names index (the file of another page)';
  const first = segments[0] ?? '';
  const own = route.route.split('/')[1] ?? '';
  if (isShopRoute(first) && own.toLowerCase() !== first.toLowerCase()) {
    return `/${first} is a route of the shop, not a page of ${route.route}`;
  }
  return null;
}

/** What one publish did. */
export interface PublishResult {
  /** Paths rendered and written. */
  written: string[];
  /** Paths whose file was deleted (asked to remove, or no longer a page of the site). */
  removed: string[];
  /** Picture files encoded for these pages, relative to the client folder (`_astro/...`). */
  pictures: string[];
  /** Paths neither written nor removed: another page's file (`publishRefusal`), logged. */
  refused: string[];
  ms: number;
}

export interface PagePublisher {
  /** The pre-rendered route a shop path belongs to, or null (an on-demand page, or none). */
  routeFor(pathname: string): PublishedRoute | null;
  /** The file of `pathname` under the client folder (`/c/matelas` → `c/matelas.html`). */
  fileOf(pathname: string, route: PublishedRoute): string;
  /**
   * Renders `render` again with the data the pages read now, deletes the files of `remove`,
   * and returns what it did. A path of `render` that is no longer a page (its getStaticPaths
   * no longer lists it) is removed too. Call `dataChanged` first when the data changed.
   */
  publish(change: { render: readonly string[]; remove: readonly string[] }): Promise<PublishResult>;
  /** Drops the getStaticPaths results Astro keeps, so the next render reads the data again. */
  dataChanged(): void;
}

export interface PagePublisherOptions {
  app: PrerenderApp;
  /** The build's client folder (`dist/client`). */
  clientDir: string;
  origin: string;
  /**
   * The build's picture registration (the capture's `pictures()`): installed for good, so
   * pages show the build's picture files, and new pictures are encoded before their page is
   * written (publish-pictures.ts). Without it, pages rendered here would show `/_image` URLs.
   */
  pictures: CapturedPictures;
  /** Told the pictures a publish wrote (publish-pictures.ts `record`). */
  recordPictures?: (pictures: readonly PictureEntry[]) => void;
  /**
   * The build's render threads, kept (render-pool.ts): a publish's pages render on them too;
   * null or absent, on this thread only.
   */
  threads?: RenderPool | null;
}

/**
 * The build precompressed the sitemaps it wrote (`.br`, `.gz` beside `sitemap-index.xml` and
 * `sitemap-0.xml`), which the server prefers: once the sitemaps are written again, those copies
 * are of the old ones, and a crawler asking for gzip would be served them.
 */
async function dropSitemapCopies(dir: string): Promise<void> {
  const names = await readdir(dir);
  await Promise.all(
    names
      .filter((name) => /^sitemap-(index|\d+)\.xml\.(br|gz)$/.test(name))
      .map((name) => rm(path.join(dir, name), { force: true })),
  );
}

/**
 * Puts a page rendered into its rendering file (publish-render.ts) in place: renamed over the
 * old one, so a reader sees the old page or the new one, whole. No fsync: a page lost to a
 * crash is rendered again by the next build. Synchronous: the publish's pages are put in place
 * in one run of system calls, within milliseconds of each other (1,800 pages awaited one by one
 * took 0.9-1.0 s at 100,000 products, `BENCH_PICK=first npm run bench:rebuild`).
 */
function replaceFile(file: string): void {
  renameSync(renderingFile(file), file);
  // A compressed copy beside it would now be of the old one. The build writes none beside
  // pages (two system calls a page for nothing: 1,800 pages put in place in 0.4-1.0 s).
  if (PRECOMPRESSED.test(file)) {
    rmSync(`${file}.br`, { force: true });
    rmSync(`${file}.gz`, { force: true });
  }
}

async function removeFile(file: string): Promise<boolean> {
  try {
    await rm(file);
  } catch {
    return false;
  }
  await Promise.all([rm(`${file}.br`, { force: true }), rm(`${file}.gz`, { force: true })]);
  return true;
}

export function createPagePublisher(options: PagePublisherOptions): PagePublisher {
  const { app } = options;
  const clientDir = path.resolve(options.clientDir);
  const pictures: PicturePublisher = installPicturePublisher({
    captured: options.pictures,
    clientDir,
    ...(options.recordPictures ? { record: options.recordPictures } : {}),
    // The products showing a picture that cannot be fetched, for its log line.
    owners: (src) => productsShowing(handedOver('catalogue')?.products ?? [])(src),
  });
  const routes = app.manifest.routes.map((info) => info.routeData).filter((r) => r.prerender);

  const routeFor = (pathname: string): PublishedRoute | null =>
    routes.find((route) => route.pattern.test(pathname)) ?? null;

  const fileOf = (pathname: string, route: PublishedRoute): string => {
    if (route.type === 'endpoint') return pathname.slice(1);
    return pathname === '/' ? 'index.html' : `${pathname.slice(1)}.html`;
  };

  /** The URL Astro's build asks for (build.format 'file': `/x.html`, `/index.html`). */
  const requestUrl = (pathname: string, route: PublishedRoute): URL =>
    new URL(route.type === 'endpoint' ? pathname : `/${fileOf(pathname, route)}`, options.origin);

  const inside = (file: string): string => {
    const target = path.resolve(clientDir, file);
    if (!target.startsWith(clientDir + path.sep)) {
      throw new Error(`${file} is outside the client folder`);
    }
    return target;
  };

  const threads = options.threads ?? null;
  /** Whether the threads render from older data than this thread (sent before the next publish). */
  let threadsStale = false;

  return {
    routeFor,
    fileOf,
    dataChanged: () => {
      app.routeCache.clearAll();
      threadsStale = true;
    },
    async publish(change) {
      const started = performance.now();
      const written: string[] = [];
      const removed: string[] = [];
      const encoded: string[] = [];
      const refused: string[] = [];
      /** Whether the file of `pathname` may be touched through `route`; logged when not. */
      const owned = (pathname: string, route: PublishedRoute): boolean => {
        const reason = publishRefusal(pathname, route);
        if (reason === null) return true;
        refused.push(pathname);
        console.warn(`[publish] ${JSON.stringify(pathname.slice(0, 200))} left alone: ${reason}`);
        return false;
      };
      const jobs: (PageJob & { route: PublishedRoute })[] = [];
      for (const pathname of new Set(change.render)) {
        const route = routeFor(pathname);
        if (route === null) throw new Error(`${pathname} is not a pre-rendered page`);
        if (!owned(pathname, route)) continue;
        const file = inside(fileOf(pathname, route));
        jobs.push({ pathname, url: requestUrl(pathname, route).href, route, file });
      }
      if (threadsStale && threads !== null) {
        await threads.sync();
        threadsStale = false;
      }
      // Every page rendered before any is replaced: a failure leaves the site as it was.
      const { outcomes, onThreads } = await renderPages(jobs, {
        pool: threads,
        renderHere: (job) => app.render(new Request(job.url), { routeData: job.route }),
      });
      const rendered = performance.now();
      let pictured: number;
      try {
        // Their new pictures first: a page is never served before the files it shows.
        const label = jobs.length === 1 ? jobs[0]?.pathname : `one of ${jobs.length} pages`;
        for (const picture of await pictures.flush(label)) {
          encoded.push(path.relative(clientDir, picture));
        }
        pictured = performance.now();
        for (const [index, job] of jobs.entries()) {
          if (outcomes[index] === 'gone') {
            if (await removeFile(job.file)) removed.push(job.pathname);
            continue;
          }
          replaceFile(job.file);
          written.push(job.pathname);
        }
      } catch (error) {
        // What is not in place yet stays as it was.
        await discard(jobs);
        throw error;
      }
      const done = new Set([...written, ...removed]);
      for (const pathname of new Set(change.remove)) {
        if (done.has(pathname)) continue;
        const route = routeFor(pathname);
        if (route === null || !owned(pathname, route)) continue;
        if (await removeFile(inside(fileOf(pathname, route)))) removed.push(pathname);
      }
      if (jobs.length > 0) {
        console.info(
          `[publish] ${String(jobs.length)} pages rendered in ${String(Math.round(rendered - started))} ms (${String(onThreads)} of them on the render threads), their pictures ${String(encoded.length)} new in ${String(Math.round(pictured - rendered))} ms, put in place in ${String(Math.round(performance.now() - pictured))} ms`,
        );
      }
      return {
        written,
        removed,
        pictures: encoded,
        refused,
        ms: Math.round(performance.now() - started),
      };
    },
  };
}
