/**
 * The probes of a server worker, answered by `http-server.ts` before anything else of the shop
 * (never a file of the release, never Astro, never throttled, no upstream call):
 *
 * - `GET /healthz`: the process answers. Always 200 while it does.
 * - `GET /readyz`: this worker may take new requests. 200 only when all of `readiness` hold, in
 *   this order: it is not draining (a stop or a release swap began: `draining`), its release is
 *   loaded and it listens (`release`), and the shop's state store answers (`store`: Redis `PING`
 *   when `REDIS_URL` is set, else a read of the state file, within `STORE_DEADLINE_MS`). Else
 *   503 naming the first failing check. A balancer sends requests only to copies whose
 *   `/readyz` says 200 (docs/operations.md, "Probes and the drained stop").
 *
 * Both reply `Cache-Control: no-store` with a small JSON body; HEAD gets the headers alone,
 * OPTIONS its 204, any other method 405, as the shop's other fixed addresses do.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connectRedis, type RedisConnection } from '../shop/state/redis.ts';
import { createStore, type SharedStore } from '../shop/state/index.ts';
import { withSecurityHeaders } from './headers.ts';
import { writeHead } from './on-demand.ts';

/** The probes' addresses. */
export const HEALTH_PATHS = ['/healthz', '/readyz'] as const;
export type HealthPath = (typeof HEALTH_PATHS)[number];

/** What the probes allow. */
export const HEALTH_ALLOW = 'GET, HEAD, OPTIONS';

/** How long the state store has to answer a readiness check (ms). */
export const STORE_DEADLINE_MS = 1_000;

/** The checks of `/readyz`, in the order they are judged. */
export type ReadinessCheck = 'draining' | 'release' | 'store';

/** What a worker knows of itself when `/readyz` is asked. */
export interface ReadinessFacts {
  /** A stop began (SIGTERM) or its release is being swapped out: it finishes, takes no more. */
  draining: boolean;
  /** Its release is loaded and it listens. */
  listening: boolean;
  /** The state store's answer: null when it answered, else why not. */
  storeFailure: string | null;
}

export type Readiness = { ready: true } | { ready: false; check: ReadinessCheck; reason: string };

/** The readiness rule: ready only when no check fails; else the first failing one. */
export function readiness(facts: ReadinessFacts): Readiness {
  if (facts.draining) return { ready: false, check: 'draining', reason: 'the server is stopping' };
  if (!facts.listening) {
    return { ready: false, check: 'release', reason: 'the release is not loaded yet' };
  }
  if (facts.storeFailure !== null) {
    return { ready: false, check: 'store', reason: facts.storeFailure };
  }
  return { ready: true };
}

/** The probe of the state store: resolves to null when it answered, else the reason. */
export interface StoreProbe {
  check(): Promise<string | null>;
  close(): Promise<void>;
}

/** Resolves with `promise`'s value, or `late` once `ms` have passed. */
function within<T>(promise: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<T>((resolve) => {
      timer = setTimeout(() => {
        resolve(late);
      }, ms);
    }),
  ]).finally(() => {
    clearTimeout(timer);
  });
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The probe of the store the shop uses: Redis `PING` when `redisUrl` is set (its own
 * connection, made at the first check), else a read of the file store in `stateDir` (or the
 * memory store). One check at a time: probes asked meanwhile share its answer. A store that does
 * not answer within `deadlineMs` fails the check.
 */
export function createStoreProbe(options: {
  redisUrl?: string | undefined;
  stateDir?: string | undefined;
  deadlineMs?: number;
}): StoreProbe {
  const deadlineMs = options.deadlineMs ?? STORE_DEADLINE_MS;
  const redisUrl = options.redisUrl?.trim() ?? '';
  let redis: RedisConnection | null = null;
  let store: SharedStore | null = null;
  let inFlight: Promise<string | null> | null = null;
  let closed: Promise<void> | null = null;
  const ask = async (): Promise<string | null> => {
    try {
      if (redisUrl !== '') {
        redis ??= connectRedis({
          url: redisUrl,
          connectTimeoutMs: deadlineMs,
          // The shop's own users of Redis log its outages; readiness says it in its reply.
          outageLog: { down: () => undefined, up: () => undefined },
        });
        const connection = redis;
        await connection.run((client) => client.ping());
      } else {
        store ??= createStore({ stateDir: options.stateDir });
        await store.get('readyz:probe');
      }
      return null;
    } catch (error) {
      return `the state store does not answer: ${messageOf(error)}`;
    }
  };
  return {
    check() {
      inFlight ??= within(
        ask(),
        deadlineMs,
        `the state store did not answer within ${String(deadlineMs)} ms`,
      ).finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
    close() {
      // Once: a drain and a close may both ask.
      closed ??= (async () => {
        await redis?.close();
        await store?.close();
      })();
      return closed;
    },
  };
}

/** A probe's reply: status, headers (no security headers yet) and body. */
export interface HealthReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const json = (status: number, value: unknown): HealthReply => {
  const body = `${JSON.stringify(value)}\n`;
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
    },
    body,
  };
};

/** Whether `pathname` is one of the probes. */
export function isHealthPath(pathname: string): pathname is HealthPath {
  return pathname === '/healthz' || pathname === '/readyz';
}

/**
 * The reply to `method` on a probe. `facts` is asked only for a `/readyz` read, and the store
 * only when the worker's own checks hold (a draining worker answers at once).
 */
export async function healthReply(
  pathname: HealthPath,
  method: string,
  facts: () => Omit<ReadinessFacts, 'storeFailure'>,
  probe: StoreProbe,
): Promise<HealthReply> {
  if (method === 'OPTIONS') {
    return { status: 204, headers: { allow: HEALTH_ALLOW, 'cache-control': 'no-store' }, body: '' };
  }
  if (method !== 'GET' && method !== 'HEAD') {
    const reply = json(405, { status: 'method not allowed' });
    return { ...reply, headers: { ...reply.headers, allow: HEALTH_ALLOW } };
  }
  if (pathname === '/healthz') return json(200, { status: 'ok' });
  const own = facts();
  const first = readiness({ ...own, storeFailure: null });
  const verdict = first.ready ? readiness({ ...own, storeFailure: await probe.check() }) : first;
  if (verdict.ready) return json(200, { status: 'ready' });
  // No log line: a balancer asks every second or so, and the store's users log its outages.
  return json(503, { status: 'unready', check: verdict.check, reason: verdict.reason });
}

/** Answers a probe on `res`, with the security headers (`http-server.ts`). */
export async function sendProbe(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: HealthPath,
  facts: () => Omit<ReadinessFacts, 'storeFailure'>,
  probe: StoreProbe,
  https: boolean,
): Promise<void> {
  const reply = await healthReply(pathname, req.method ?? 'GET', facts, probe);
  writeHead(res, reply.status, withSecurityHeaders(reply.headers, https));
  res.end(req.method === 'HEAD' || reply.body === '' ? undefined : reply.body);
}
