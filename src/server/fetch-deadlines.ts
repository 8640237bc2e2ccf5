/**
 * A deadline on every `fetch` of a process: the build (scripts/lib/astro-build-child.ts: the
 * catalogue read, Astro's build-time picture fetch, a kept build's publishes and the pictures
 * they encode) and the server's workers (src/server/serve.ts: on-demand reads, the picture
 * endpoint). The upstream connectors bound their own calls too (ky's `timeout`); this bounds
 * what has no deadline of its own, such as Astro fetching a remote picture, so a host that
 * accepts the connection and then says nothing fails the fetch instead of holding it forever
 * (Node's own default is 300 s for the headers and none for a stalled body).
 *
 * Node's `fetch` is undici's, bundled in Node, and takes its connections from the process-wide
 * dispatcher that undici keeps under `Symbol.for('undici.globalDispatcher.1')` (what undici's
 * `setGlobalDispatcher` sets, shared with Node's bundled copy, as undici documents; one per
 * thread). It is
 * replaced by an Agent of the same class (the bundled one, so no second undici is loaded) with
 * connect, headers and body timeouts: connecting, the reply's headers, and each wait between
 * two pieces of its body may each last at most `FETCH_TIMEOUT_MS` (default 30 s). A fetch past
 * it fails with `fetch failed`, caused by `UND_ERR_CONNECT_TIMEOUT`, `UND_ERR_HEADERS_TIMEOUT`
 * or `UND_ERR_BODY_TIMEOUT` (rebuild/failure.ts counts these as transient).
 */
import { readEnvironment } from '../shop/config/environment.ts';

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface Dispatcher {
  close?: () => Promise<void>;
}

type AgentClass = new (options: {
  connect: { timeout: number };
  headersTimeout: number;
  bodyTimeout: number;
}) => Dispatcher;

/** `FETCH_TIMEOUT_MS` of `env` (default 30 s); a bad value throws, naming the variable. */
export function fetchTimeoutFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  return readEnvironment(['FETCH_TIMEOUT_MS'], env).FETCH_TIMEOUT_MS;
}

/**
 * The fetch dispatcher of this thread now. The main thread has one from the start; a worker
 * thread (the build's render threads) gets its own on its first `fetch`: one of a `data:` URL,
 * which touches no network, makes it.
 */
function currentDispatcher(): Dispatcher | undefined {
  if (typeof globalThis.fetch !== 'function') return undefined;
  const holder = globalThis as Record<symbol, Dispatcher | undefined>;
  if (holder[GLOBAL_DISPATCHER] === undefined) {
    fetch('data:,').catch(() => undefined);
  }
  return holder[GLOBAL_DISPATCHER];
}

/**
 * Gives every `fetch` of this process connect, headers and body timeouts of `timeoutMs`; returns
 * a function that puts the previous dispatcher back (tests). Throws when Node has no undici
 * dispatcher to derive one from (a Node without `fetch`).
 */
export function installFetchDeadlines(timeoutMs: number): () => void {
  const previous = currentDispatcher();
  const Agent = (previous as { constructor?: unknown } | undefined)?.constructor;
  if (previous === undefined || typeof Agent !== 'function' || Agent === Object) {
    throw new Error('this Node has no fetch dispatcher to give deadlines to');
  }
  const holder = globalThis as Record<symbol, Dispatcher | undefined>;
  const bounded = new (Agent as AgentClass)({
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  holder[GLOBAL_DISPATCHER] = bounded;
  return () => {
    if (holder[GLOBAL_DISPATCHER] !== bounded) return;
    holder[GLOBAL_DISPATCHER] = previous;
    void bounded.close?.().catch(() => undefined);
  };
}
