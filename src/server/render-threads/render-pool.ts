/**
 * The build's render threads, kept alive for the publisher. A build kept to publish edits
 * (scripts/lib/astro-build-child.ts with BUILD_PUBLISHER=1) asks for them before the build
 * starts (`keepRenderThreads`); at the end of the pages, parallel-prerender.ts then hands its
 * threads over (`handOverRenderPool`) instead of stopping them, each still holding the bundle's
 * module graph and its copy of the data, and the publisher takes them (`takeRenderPool`) to
 * render a publish's pages across the cores (src/server/publish/page-publisher.ts). Starting
 * threads per publish instead would cost a copy of the catalogue each time (seconds at
 * 100,000 products), and the pre-render bundle is deleted once the build is done.
 *
 * The Astro config and this script may load these modules as separate instances: the request
 * and the pool meet in a `globalThis` slot, as the build's other hand-overs do.
 */

/** A page for a thread: its URL, route, and where to write its body (null: send it back). */
export interface PoolPage {
  url: string;
  route: string;
  component: string;
  /** Written there when it renders with status 200 (the reply's body is then null). */
  file: string | null;
}

export interface RenderPool {
  /** The threads, numbered from 0. */
  readonly size: number;
  /** Pages a thread is given at once (more wait for one to come back). */
  readonly pagesPerThread: number;
  /**
   * Gives the threads what the main thread's pages render from now (the catalogue, as a
   * change from what they have, and the content), when it changed since the last call; the
   * pages sent after it render from that.
   */
  sync(): Promise<void>;
  /**
   * Renders a page on thread `thread`: its response, whose body is null when the thread wrote
   * it to `page.file`. Rejects with the page's error (its `name` kept), or once a thread has
   * stopped (every later call too: the pool is then broken).
   */
  render(thread: number, page: PoolPage): Promise<Response>;
  /** Stops the threads. */
  stop(): Promise<void>;
}

const SLOT = Symbol.for('literie.render-pool');

interface Slot {
  requested: boolean;
  pool: RenderPool | null;
}

type Holder = typeof globalThis & { [SLOT]?: Slot };

function slot(): Slot {
  const holder = globalThis as Holder;
  return (holder[SLOT] ??= { requested: false, pool: null });
}

/** Asks the build to keep its render threads once its pages are done. */
export function keepRenderThreads(): void {
  slot().requested = true;
}

/** Whether this process's build was asked to keep its render threads. */
export function renderThreadsWanted(): boolean {
  return slot().requested;
}

/** The build's threads, kept (parallel-prerender.ts). */
export function handOverRenderPool(pool: RenderPool): void {
  slot().pool = pool;
}

/** The threads the build kept, once (null: none, or already taken). */
export function takeRenderPool(): RenderPool | null {
  const { pool } = slot();
  slot().pool = null;
  return pool;
}
