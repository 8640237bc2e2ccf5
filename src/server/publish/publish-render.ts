/**
 * A publish's pages rendered across the cores: on the kept build's main thread and on the
 * build's render threads it kept (src/server/render-threads/render-pool.ts), each page into a
 * file of its own beside its final name (`{file}.publishing`), which page-publisher.ts renames
 * over the page once every page of the publish has rendered. So a publish whose page fails,
 * or whose thread stops, leaves every page of the site as it was (its files removed here), and
 * a page shown on thousands of others (a seed product related to 2 % of the catalogue) is
 * rendered by every core instead of one.
 *
 * Each thread is given up to `pagesPerThread` pages at once (they go and come back in
 * batches, as in the build); the main thread takes the next page whenever it is free, so both
 * stay busy. A page of status 200 is written by the thread that rendered it; anything else
 * comes back and is written here, as the build does (a redirect is refused: no static page of
 * the shop redirects).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { RenderPool } from '../render-threads/render-pool.ts';

/** A page to render: its shop path, the URL Astro's build asks for, its route and its file. */
export interface PageJob {
  pathname: string;
  url: string;
  route: { route: string; component: string };
  /** The page's file in the release. */
  file: string;
}

/** The file a page is rendered into before it replaces `file`. */
export const renderingFile = (file: string): string => `${file}.publishing`;

/** What became of each page: rendered into its `renderingFile`, or gone (no longer a page). */
export type Rendered = 'rendered' | 'gone';

export interface RenderedPages {
  /** Per job, in order. */
  outcomes: Rendered[];
  /** Pages rendered by a render thread. */
  onThreads: number;
}

export interface RenderPagesOptions<J extends PageJob> {
  /** Renders a page on this thread (Astro's pre-render app). */
  renderHere(job: J): Promise<Response>;
  /** The kept render threads, or null: every page renders here. */
  pool: RenderPool | null;
}

/** Astro's error for a path its route's getStaticPaths does not list. */
export function isNoStaticPath(error: unknown): boolean {
  return error instanceof Error && error.name === 'NoMatchingStaticPathFound';
}

/**
 * Renders every job into its `renderingFile`; throws the first failure once the pages in flight
 * are back, having removed every file it rendered (nothing of the publish is then written).
 */
export async function renderPages<J extends PageJob>(
  jobs: readonly J[],
  options: RenderPagesOptions<J>,
): Promise<RenderedPages> {
  const outcomes: Rendered[] = [];
  const folders = new Set<string>();
  let next = 0;
  // Set by the lanes (a cast: the checker would take it for null after this line).
  let failure = null as { error: unknown } | null;
  let onThreads = 0;

  /** Writes where a thread would, synchronously (as the threads do: no hop through libuv). */
  const write = (file: string, body: Buffer) => {
    const folder = path.dirname(file);
    if (!folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    writeFileSync(file, body);
  };

  /** A page's response, written into its rendering file unless a thread did. */
  const settle = async (index: number, job: PageJob, response: Response, thread: boolean) => {
    // The build writes what a page renders, whatever its status (the 500 page's is 500);
    // no static page of the shop redirects.
    if (response.status >= 300 && response.status < 400) {
      throw new Error(`${job.pathname} rendered a redirect (${String(response.status)})`);
    }
    const written = thread && response.status === 200 && response.body === null;
    if (!written) {
      write(renderingFile(job.file), Buffer.from(await response.arrayBuffer()));
    }
    outcomes[index] = 'rendered';
  };

  const lane = async (render: (job: J) => Promise<Response>, thread: boolean) => {
    while (failure === null && next < jobs.length) {
      const index = next++;
      const job = jobs[index];
      if (job === undefined) break;
      try {
        const response = await render(job);
        await settle(index, job, response, thread);
        if (thread) onThreads++;
      } catch (error) {
        // Its getStaticPaths no longer lists it: a page that is gone (a deleted product).
        if (isNoStaticPath(error)) outcomes[index] = 'gone';
        else failure ??= { error };
      }
    }
  };

  const { pool } = options;
  const lanes = [lane((job) => options.renderHere(job), false)];
  for (let thread = 0; pool !== null && thread < pool.size; thread++) {
    for (let i = 0; i < pool.pagesPerThread; i++) {
      lanes.push(
        lane(
          (job) =>
            pool.render(thread, {
              url: job.url,
              route: job.route.route,
              component: job.route.component,
              file: renderingFile(job.file),
            }),
          true,
        ),
      );
    }
  }
  await Promise.all(lanes);
  if (failure !== null) {
    await discard(jobs);
    throw failure.error;
  }
  return { outcomes, onThreads };
}

/** Removes the rendering files of `jobs` (a publish given up, or its leftovers). */
export async function discard(jobs: readonly PageJob[]): Promise<void> {
  await Promise.all(jobs.map((job) => rm(renderingFile(job.file), { force: true })));
}
