/**
 * The server's webhook endpoints (wired by `src/server/serve.ts` before anything else):
 * `POST /webhooks/contentful` (signed, `contentful.ts`), `POST /webhooks/bigcommerce` (shared
 * secret header, `bigcommerce.ts`) and `GET /webhooks/status` (the rebuild status, to loopback
 * callers or a bearer token). An accepted notification is remembered in the shared store
 * (`setIfAbsent`, so a replay is refused by every server copy) and handed to `onEvent` (the
 * rebuild scheduler, in the supervisor). Every refusal answers a short text (401, 403, 409,
 * 413...), never echoes the request, changes nothing and logs one line (at most a few a
 * minute: a flood of forgeries cannot fill the log). An endpoint whose secret is unset
 * answers 404, as if it did not exist.
 *
 * An authenticated request whose timestamp says this copy's clock is off answers 503 with
 * `Retry-After` and a line naming the skew (`clock.ts`); an unreachable replay store answers
 * 503 too. Neither accepts anything: only a request inside its window that the replay store
 * has never seen is accepted. When the store has lost its records (a Redis restarted empty),
 * the window alone bounds a replay: 30 s for Contentful, 5 minutes for BigCommerce.
 */
import { readFile } from 'node:fs/promises';
import { createHash, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { oneLine } from '../../shop/faults/failures.ts';
import type { SharedStore } from '../../shop/state/types.ts';
import { withSecurityHeaders } from '../headers.ts';
import type { RebuildEvent } from '../rebuild/scheduler.ts';
import { createClockWatch, type ClockVerdict } from './clock.ts';
import {
  CONTENTFUL_MAX_AGE_MS,
  CONTENTFUL_MAX_SKEW_MS,
  parseContentfulNotification,
  SIGNATURE_HEADER,
  TOPIC_HEADER,
  verifyContentfulRequest,
} from './contentful.ts';
import {
  BIGCOMMERCE_MAX_AGE_MS,
  BIGCOMMERCE_MAX_SKEW_MS,
  hasSharedSecret,
  parseBigCommerceNotification,
  parseScope,
} from './bigcommerce.ts';
import { log as logger } from '../../shop/config/log.ts';

/** Largest webhook body read (Contentful sends a whole entry: tens of KB at most). */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;
/** A body must arrive within this time. */
const BODY_TIMEOUT_MS = 10_000;
/** Refusal lines logged per minute at most; the rest are counted in the next line. */
const LOG_LINES_PER_MINUTE = 20;
/** `Retry-After` when the replay store cannot be reached. */
const STORE_RETRY_AFTER_SECONDS = 5;
/** What Contentful's structure checks refuse before the body is read (the signature needs it). */
const NEEDS_BODY = new Set(['bad-signature', 'stale-timestamp', 'future-timestamp']);

export interface WebhookOptions {
  contentfulSecret?: string | undefined;
  bigcommerceSecret?: string | undefined;
  /** The store hash a BigCommerce notification's `producer` must name (`stores/{hash}`). */
  bigcommerceStoreHash?: string | undefined;
  /** Bearer token of `GET /webhooks/status` for callers off this machine. */
  statusToken?: string | undefined;
  /** The status file `GET /webhooks/status` answers; unset, the route is 404. */
  statusFile?: string | undefined;
  /** Where accepted notifications are remembered (replays refused); a function: made on first use. */
  store: SharedStore | (() => SharedStore);
  /** An accepted notification that changes the site. */
  onEvent(event: RebuildEvent): void;
  now?: () => number;
  log?: (line: string) => void;
  maxBodyBytes?: number;
}

export interface WebhookRoutes {
  /** Answers a request whose path starts with `/webhooks/`. */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    https: boolean,
  ): Promise<void>;
}

class BodyError extends Error {
  readonly status: 408 | 413 | 400;
  constructor(status: 408 | 413 | 400) {
    super(http.STATUS_CODES[status]);
    this.status = status;
  }
}

/** The raw body, at most `limit` bytes (413 past it), within the time limit (408). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    return Promise.reject(new BodyError(413));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => {
      cleanup();
      reject(new BodyError(408));
    }, BODY_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        reject(new BodyError(413));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = () => {
      cleanup();
      reject(new BodyError(400));
    };
    const cleanup = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Whether the request comes from this machine, not through a proxy. */
function isLoopback(req: IncomingMessage): boolean {
  const address = req.socket.remoteAddress ?? '';
  const local = address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
  // A local reverse proxy forwards the world's requests from loopback: those say so.
  const forwarded =
    req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
  return local && !forwarded;
}

export function createWebhookRoutes(options: WebhookOptions): WebhookRoutes {
  const now = options.now ?? Date.now;
  const log =
    options.log ??
    ((line: string) => {
      logger.warn(line);
    });
  const maxBody = options.maxBodyBytes ?? MAX_WEBHOOK_BODY_BYTES;
  const loggedDisabled = new Set<string>();
  let store: SharedStore | null = typeof options.store === 'function' ? null : options.store;
  const replayStore = (): SharedStore => {
    store ??= (options.store as () => SharedStore)();
    return store;
  };
  const clocks = {
    contentful: createClockWatch({
      source: 'contentful',
      aheadMs: CONTENTFUL_MAX_SKEW_MS,
      maxAgeMs: CONTENTFUL_MAX_AGE_MS,
      now,
      log,
    }),
    bigcommerce: createClockWatch({
      source: 'bigcommerce',
      aheadMs: BIGCOMMERCE_MAX_SKEW_MS,
      maxAgeMs: BIGCOMMERCE_MAX_AGE_MS,
      now,
      log,
    }),
  };

  // Refusal lines: a budget per minute, the overflow counted.
  let windowStart = 0;
  let linesInWindow = 0;
  let suppressed = 0;
  const refusalLog = (line: string) => {
    const t = now();
    if (t - windowStart >= 60_000) {
      if (suppressed > 0) log(`[webhooks] ${suppressed} more refusals not logged`);
      windowStart = t;
      linesInWindow = 0;
      suppressed = 0;
    }
    if (linesInWindow >= LOG_LINES_PER_MINUTE) {
      suppressed += 1;
      return;
    }
    linesInWindow += 1;
    log(line);
  };

  const reply = (
    req: IncomingMessage,
    res: ServerResponse,
    https: boolean,
    status: number,
    body: string | object,
    extra: Record<string, string> = {},
  ) => {
    const text = typeof body === 'string' ? `${body}\n` : `${JSON.stringify(body)}\n`;
    const headers = withSecurityHeaders(
      {
        ...extra,
        'cache-control': 'no-store',
        'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      },
      https,
    );
    res.writeHead(status, http.STATUS_CODES[status] ?? 'Unknown', headers);
    res.end(req.method === 'HEAD' ? undefined : text);
  };

  /** Refuses: short text, one log line (what and why, the peer; never the body). */
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    https: boolean,
    source: string,
    status: number,
    reason: string,
  ) => {
    refusalLog(
      `[webhooks] ${source} refused (${status} ${reason}) from ${oneLine(req.socket.remoteAddress ?? '?')}`,
    );
    // The rest of an unread body is not our business: close instead of draining it.
    if (!req.complete) res.setHeader('connection', 'close');
    reply(req, res, https, status, http.STATUS_CODES[status] ?? 'Refused');
  };

  /** This copy's clock is off: 503, retryable (the skew line is the clock watch's). */
  const clockOff = (
    req: IncomingMessage,
    res: ServerResponse,
    https: boolean,
    verdict: Extract<ClockVerdict, { clockOff: true }>,
  ) => {
    if (!req.complete) res.setHeader('connection', 'close');
    reply(req, res, https, 503, 'Service Unavailable', {
      'retry-after': String(verdict.retryAfterSeconds),
    });
  };

  /**
   * Remembers an accepted notification in the replay store: true when it is new. An
   * unreachable store is a 503 (retryable): never an acceptance without the record.
   */
  const firstTime = async (
    req: IncomingMessage,
    res: ServerResponse,
    https: boolean,
    source: string,
    key: string,
    value: string,
    ttlMs: number,
  ): Promise<boolean> => {
    let fresh: boolean;
    try {
      fresh = await replayStore().setIfAbsent(key, value, ttlMs);
    } catch (error) {
      refusalLog(`[webhooks] ${source} not taken (503): replay store: ${oneLine(String(error))}`);
      reply(req, res, https, 503, 'Service Unavailable', {
        'retry-after': String(STORE_RETRY_AFTER_SECONDS),
      });
      return false;
    }
    if (!fresh) refuse(req, res, https, source, 409, 'replayed');
    return fresh;
  };

  const disabled = (
    req: IncomingMessage,
    res: ServerResponse,
    https: boolean,
    source: string,
    variable: string,
  ) => {
    if (!loggedDisabled.has(source)) {
      loggedDisabled.add(source);
      log(`[webhooks] ${source} webhook disabled: ${variable} is not set (answering 404)`);
    }
    if (!req.complete) res.setHeader('connection', 'close');
    reply(req, res, https, 404, 'Not Found');
  };

  const readOrRefuse = async (
    req: IncomingMessage,
    res: ServerResponse,
    https: boolean,
    source: string,
  ): Promise<Buffer | null> => {
    try {
      return await readBody(req, maxBody);
    } catch (error) {
      const status = error instanceof BodyError ? error.status : 400;
      refuse(req, res, https, source, status, 'body');
      return null;
    }
  };

  async function contentful(req: IncomingMessage, res: ServerResponse, https: boolean) {
    const secret = options.contentfulSecret;
    if (secret === undefined) {
      disabled(req, res, https, 'contentful', 'CONTENTFUL_WEBHOOK_SECRET');
      return;
    }
    const headerCheck = verifyContentfulRequest({
      method: 'POST',
      path: req.url ?? '',
      headers: req.headers,
      rawBody: Buffer.alloc(0),
      secret,
      now: now(),
    });
    // Everything but the signature (and so the timestamp's window, judged once the signature
    // holds) can be refused before reading the body.
    if (!headerCheck.ok && !NEEDS_BODY.has(headerCheck.reason)) {
      refuse(req, res, https, 'contentful', 401, headerCheck.reason);
      return;
    }
    const rawBody = await readOrRefuse(req, res, https, 'contentful');
    if (rawBody === null) return;
    const verified = verifyContentfulRequest({
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      rawBody,
      secret,
      now: now(),
    });
    if (!verified.ok) {
      const signature = req.headers[SIGNATURE_HEADER];
      if (verified.offsetMs !== undefined && typeof signature === 'string') {
        const verdict = clocks.contentful.judge(verified.offsetMs, signature.toLowerCase());
        if (verdict.clockOff) {
          clockOff(req, res, https, verdict);
          return;
        }
      }
      refuse(req, res, https, 'contentful', 401, verified.reason);
      return;
    }
    clocks.contentful.agreed();
    // Parsed only now that it is Contentful's.
    const topicHeader = req.headers[TOPIC_HEADER];
    const notification = parseContentfulNotification(
      typeof topicHeader === 'string' ? topicHeader : undefined,
      rawBody,
    );
    if (notification === null) {
      refuse(req, res, https, 'contentful', 400, 'unreadable body');
      return;
    }
    // The signature stays valid while its timestamp is in the window: remember it that long
    // (and a minute more, for copies whose clocks differ within the tolerance).
    const fresh = await firstTime(
      req,
      res,
      https,
      'contentful',
      `webhook:contentful:${verified.signature}`,
      String(verified.timestamp),
      CONTENTFUL_MAX_AGE_MS + CONTENTFUL_MAX_SKEW_MS + 60_000,
    );
    if (!fresh) return;
    if (!notification.relevant) {
      reply(req, res, https, 202, { status: 'ignored', topic: notification.topic });
      return;
    }
    options.onEvent({
      source: 'contentful',
      topic: notification.topic,
      id: notification.id,
      receivedAt: now(),
    });
    reply(req, res, https, 202, { status: 'accepted' });
  }

  async function bigcommerce(req: IncomingMessage, res: ServerResponse, https: boolean) {
    const secret = options.bigcommerceSecret;
    if (secret === undefined) {
      disabled(req, res, https, 'bigcommerce', 'BIGCOMMERCE_WEBHOOK_SECRET');
      return;
    }
    if (!hasSharedSecret(req.headers, secret)) {
      refuse(req, res, https, 'bigcommerce', 401, 'secret header');
      return;
    }
    const rawBody = await readOrRefuse(req, res, https, 'bigcommerce');
    if (rawBody === null) return;
    const parsed = parseBigCommerceNotification(rawBody, {
      now: now(),
      storeHash: options.bigcommerceStoreHash,
    });
    if (!parsed.ok) {
      if (parsed.offsetMs !== undefined && parsed.replayKey !== undefined) {
        const verdict = clocks.bigcommerce.judge(parsed.offsetMs, parsed.replayKey);
        if (verdict.clockOff) {
          clockOff(req, res, https, verdict);
          return;
        }
      }
      const status = parsed.reason === 'invalid-payload' ? 400 : 401;
      refuse(req, res, https, 'bigcommerce', status, parsed.reason);
      return;
    }
    clocks.bigcommerce.agreed();
    // Accepted while created_at is in the window: remembered well past it.
    const fresh = await firstTime(
      req,
      res,
      https,
      'bigcommerce',
      `webhook:bigcommerce:${parsed.replayKey}`,
      '1',
      BIGCOMMERCE_MAX_AGE_MS * 2 + 60_000,
    );
    if (!fresh) return;
    const { scope, data } = parsed.payload;
    if (parseScope(scope) === null) {
      reply(req, res, https, 202, { status: 'ignored', scope });
      return;
    }
    options.onEvent({
      source: 'bigcommerce',
      topic: scope,
      id: String(data.id),
      receivedAt: now(),
    });
    reply(req, res, https, 202, { status: 'accepted' });
  }

  async function status(req: IncomingMessage, res: ServerResponse, https: boolean) {
    const file = options.statusFile;
    const token = options.statusToken;
    const authorization = req.headers.authorization ?? '';
    const bearer = authorization.startsWith('Bearer ') ? authorization.slice(7) : '';
    const allowed =
      isLoopback(req) ||
      (token !== undefined && bearer !== '' && timingSafeEqual(digest(bearer), digest(token)));
    if (file === undefined || !allowed) {
      reply(req, res, https, 404, 'Not Found');
      return;
    }
    const text = await readFile(file, 'utf8').catch(() => null);
    let value: unknown = { state: 'unknown' };
    if (text !== null) {
      try {
        value = JSON.parse(text);
      } catch {
        // Written atomically, so never half; an unreadable file says unknown.
      }
    }
    reply(req, res, https, 200, value as object);
  }

  return {
    async handle(req, res, pathname, https) {
      const method = req.method ?? 'GET';
      if (pathname === '/webhooks/status') {
        if (method !== 'GET' && method !== 'HEAD') {
          reply(req, res, https, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
          return;
        }
        await status(req, res, https);
        return;
      }
      const endpoint =
        pathname === '/webhooks/contentful'
          ? contentful
          : pathname === '/webhooks/bigcommerce'
            ? bigcommerce
            : null;
      if (endpoint === null) {
        reply(req, res, https, 404, 'Not Found');
        return;
      }
      if (method !== 'POST') {
        if (!req.complete) res.setHeader('connection', 'close');
        reply(req, res, https, 405, 'Method Not Allowed', { allow: 'POST' });
        return;
      }
      await endpoint(req, res, https);
    },
  };
}
