/**
 * The kept-alive build's side of publishing: once `astro build` is done, the build process
 * (astro-build-child.ts with BUILD_PUBLISHER=1, started by the rebuild supervisor over IPC)
 * answers publish requests, one at a time, in order:
 *
 * - `{ type: 'publish', id, edits }`: reads what the edits name and hands the patched
 *   catalogue or content to the pages (publish-data.ts), asks `decide` which pages that touches,
 *   brings the release's listings up to date (listing-store.ts), renders those pages into the
 *   release (page-publisher.ts) and answers `published` with what it wrote and
 *   removed, or `publish-full` when `decide` says only a full build is right (the data handed
 *   over is then ahead of the pages: the supervisor stops this build and builds in full);
 * - `{ type: 'render', id, render, remove, edits? }`: renders the named paths, after reading
 *   what `edits` name when there are any (an operator's "publish these pages again");
 * - `{ type: 'stop' }`: writes the sitemaps still owed, then exits.
 *
 * A publish that adds or removes a page leaves the sitemaps to write again: after its reply,
 * once the requests pause (`SITEMAP_TIMING`).
 *
 * Any failure answers `publish-failed` with its cause (src/server/rebuild/failure.ts: the
 * error's message without secrets, `transient` when it may pass) and `dataChanged`: whether the
 * edits' data was already handed to the pages. A failure while reading the edits (an upstream
 * 503, a timeout) leaves the data as it was: the supervisor keeps this build and asks again
 * after a backoff. Once the data is handed over, the pages may be behind it: the supervisor
 * stops this build and builds in full, so an edit is never left unpublished.
 */
import * as z from 'zod';
import { describeFailure } from '../rebuild/failure.ts';
import { editSchema, type PublisherAnswer } from '../rebuild/publish-edits.ts';
import type { PagePublisher, PublishResult } from './page-publisher.ts';
import type { Edit, PublishData, PublishState } from './publish-data.ts';

const pathList = z.array(z.string().regex(/^\/[^\s?#]{0,2000}$/)).max(100_000);
const editList = z.array(editSchema).max(10_000);

export const publisherRequestSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('publish'),
    id: z.number().int().nonnegative(),
    edits: editList.min(1),
  }),
  z.object({
    type: z.literal('render'),
    id: z.number().int().nonnegative(),
    render: pathList,
    remove: pathList,
    edits: editList.optional(),
  }),
  z.object({ type: z.literal('stop') }),
]);

export type PublisherRequest = z.infer<typeof publisherRequestSchema>;

/** What the kept build answers (the supervisor parses it: publish-edits.ts). */
export type PublisherReply = { type: 'publisher-ready' } | PublisherAnswer;

/** Which pages an edit touches, from what the pages render from before and after it. */
export type Decide = (
  before: PublishState,
  after: PublishState,
  edits: readonly Edit[],
) =>
  | { kind: 'partial'; render: string[]; remove: string[]; pageSetChanged: boolean }
  | { kind: 'full'; reason: string };

export interface PublisherLoopOptions {
  publisher: PagePublisher;
  data: PublishData;
  decide: Decide;
  send(reply: PublisherReply): void;
  /** The site's pages now (shop paths), kept up to date with what publishes add and remove. */
  pages: Set<string>;
  /** Writes the sitemaps for a set of pages (page-publisher.ts); null: the build has none. */
  sitemaps: ((paths: readonly string[]) => Promise<void>) | null;
  /**
   * Brings the release's listings (listing-store.ts) from one catalogue to the next; null: the
   * build wrote none (its listing views read live).
   */
  listings: ((before: PublishState, after: PublishState) => void) | null;
}

/** Keeps the site's set of pages up to date with a publish; returns the publish. */
function track(result: PublishResult, pages: Set<string>): PublishResult {
  for (const page of result.removed) pages.delete(page);
  for (const page of result.written) pages.add(page);
  return result;
}

/**
 * Work a request leaves for after its reply: the sitemaps to write again (the set of pages
 * changed). Written once the requests pause (`SitemapTiming`); a write that fails is tried
 * again after the next request.
 */
export interface AfterReply {
  sitemaps: boolean;
}

/** Writes the sitemaps for the site's pages now; false (logged) when it could not. */
export async function writeSitemaps(options: PublisherLoopOptions): Promise<boolean> {
  // A build without the sitemap integration has none to keep up to date.
  if (options.sitemaps === null) return true;
  const started = performance.now();
  try {
    await options.sitemaps([...options.pages]);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.error(`[publish] the sitemaps could not be written again: ${reason}`);
    return false;
  }
  console.info(
    `[publish] sitemaps written for ${String(options.pages.size)} pages in ${String(Math.round(performance.now() - started))} ms`,
  );
  return true;
}

/**
 * Handles one request; never throws (a failure is a reply). Sets `afterReply.sitemaps` when the set
 * of pages changed: the caller writes them once the reply is sent (`writeSitemaps`).
 */
export async function handleRequest(
  request: Exclude<PublisherRequest, { type: 'stop' }>,
  options: PublisherLoopOptions,
  afterReply: AfterReply,
): Promise<PublisherReply> {
  const { publisher, data, decide } = options;
  // Whether the pages were handed data they may not show yet.
  let dataChanged = false;
  try {
    if (request.type === 'render') {
      dataChanged = true; // renders without a change of data: nothing to keep back
      if (request.edits !== undefined && request.edits.length > 0) {
        const { before, after } = await data.apply(request.edits);
        publisher.dataChanged();
        options.listings?.(before, after);
      }
      const result = track(await publisher.publish(request), options.pages);
      afterReply.sitemaps = true;
      return { type: 'published', id: request.id, ...result };
    }
    const started = performance.now();
    const marks: [string, number][] = [];
    const mark = (step: string) => marks.push([step, performance.now()]);
    const { before, after } = await data.apply(request.edits);
    dataChanged = true;
    publisher.dataChanged();
    mark('edits read');
    const decision = decide(before, after, request.edits);
    mark(`decision (${String(decision.kind === 'full' ? 'full' : decision.render.length)})`);
    if (decision.kind === 'full') {
      return { type: 'publish-full', id: request.id, reason: decision.reason };
    }
    options.listings?.(before, after);
    mark('listings');
    const result = track(await publisher.publish(decision), options.pages);
    mark('pages');
    // A page added or gone: the sitemaps the build wrote at its end list the pages.
    if (decision.pageSetChanged || result.removed.length > 0) afterReply.sitemaps = true;
    // Where a publish's seconds go, one line (the operators' profile of a slow publish).
    let last = started;
    const steps = marks.map(([step, at]) => {
      const ms = Math.round(at - last);
      last = at;
      return `${step} ${String(ms)} ms`;
    });
    console.info(`[publish] ${String(request.id)}: ${steps.join(', ')}`);
    return {
      ...result,
      type: 'published',
      id: request.id,
      ms: Math.round(performance.now() - started),
    };
  } catch (error) {
    const cause = describeFailure(error);
    return {
      type: 'publish-failed',
      id: request.id,
      error: cause.message,
      transient: cause.transient,
      dataChanged,
    };
  }
}

/** The channel to the parent process: this process's IPC messages and its disconnect. */
export interface ParentChannel {
  on(event: 'message' | 'disconnect', listener: (message: unknown) => void): unknown;
  off(event: 'message' | 'disconnect', listener: (message: unknown) => void): unknown;
}

/**
 * When the sitemaps a publish changed are written: once no request has come for `quietMs`
 * (an editor's run of edits is published first, and listed once after), and at the latest
 * `maxWaitMs` after the first publish that left them to write, or at a stop.
 */
export interface SitemapTiming {
  quietMs: number;
  maxWaitMs: number;
}

/**
 * Listing 100,000 pages takes 1.5-3 s of this process, which a publish arriving meanwhile
 * waited for; a crawler reads a sitemap far less often than a minute.
 */
export const SITEMAP_TIMING: SitemapTiming = { quietMs: 2_000, maxWaitMs: 60_000 };

/**
 * Serves requests from the parent process (`parent`: this process's IPC channel) until it says
 * stop or goes away. Requests are handled one after the other: two publishes never write the
 * same page at once. The sitemaps a publish changed are written after its reply, once the
 * requests have paused (`SitemapTiming`), never while a request waits, and before a stop.
 */
export function servePublishRequests(
  options: PublisherLoopOptions,
  parent: ParentChannel = process,
  timing: SitemapTiming = SITEMAP_TIMING,
): Promise<void> {
  return new Promise((resolve) => {
    let queue = Promise.resolve();
    const afterReply: AfterReply = { sitemaps: false };
    /** Requests taken and not yet answered. */
    let waiting = 0;
    /** Since when the sitemaps wait to be written (a time), or null. */
    let owedSince: number | null = null;
    let timer: NodeJS.Timeout | null = null;
    const writeOwed = async () => {
      if (afterReply.sitemaps) afterReply.sitemaps = !(await writeSitemaps(options));
      // Written: nothing owed. Failed: tried again after the next request.
      if (!afterReply.sitemaps) owedSince = null;
    };
    const cancelTimer = () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    };
    const scheduleSitemaps = () => {
      cancelTimer();
      if (owedSince === null || waiting > 0) return;
      const dueIn = Math.min(timing.quietMs, owedSince + timing.maxWaitMs - Date.now());
      timer = setTimeout(
        () => {
          timer = null;
          queue = queue.then(writeOwed);
        },
        Math.max(0, dueIn),
      );
    };
    const onMessage = (message: unknown) => {
      const parsed = publisherRequestSchema.safeParse(message);
      if (!parsed.success) {
        console.warn(`[publish] a request was not understood: ${parsed.error.message}`);
        return;
      }
      const request = parsed.data;
      if (request.type === 'stop') {
        finish();
        return;
      }
      // A request taken: the sitemaps wait until the requests pause again.
      waiting += 1;
      cancelTimer();
      queue = queue.then(async () => {
        options.send(await handleRequest(request, options, afterReply));
        waiting -= 1;
        owedSince = afterReply.sitemaps ? (owedSince ?? Date.now()) : null;
        // Owed for too long (a stream of publishes without a pause): written now.
        if (owedSince !== null && Date.now() - owedSince >= timing.maxWaitMs) await writeOwed();
        scheduleSitemaps();
      });
    };
    const finish = () => {
      parent.off('message', onMessage);
      parent.off('disconnect', finish);
      cancelTimer();
      void queue.then(writeOwed).then(resolve);
    };
    parent.on('message', onMessage);
    parent.on('disconnect', finish);
    options.send({ type: 'publisher-ready' });
  });
}
