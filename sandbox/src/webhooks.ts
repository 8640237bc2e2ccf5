/**
 * Outgoing webhooks of the sandbox: Contentful's (signed as Contentful signs them)
 * and BigCommerce's store webhooks. Deliveries run in the background, after the write that
 * caused them has answered: each is POSTed with a 5 s timeout and retried twice (after 0.5 s
 * and 2 s) on a network error, a timeout, a 429 or a 5xx. Every delivery is kept in a small log
 * (the last 200), read by tests at `GET /__sandbox/webhook-deliveries`.
 */
import { createHmac } from 'node:crypto';

export type WebhookSource = 'contentful' | 'bigcommerce';

export interface DeliveryAttempt {
  at: string;
  /** HTTP status of the reply, absent when there was none. */
  status?: number;
  /** Network error or timeout. */
  error?: string;
  ms: number;
}

export interface DeliveryRecord {
  id: number;
  source: WebhookSource;
  /** Id of the webhook definition (Contentful) or hook (BigCommerce). */
  hookId: string;
  url: string;
  /** `ContentManagement.Entry.publish`, `store/product/updated`... */
  topic: string;
  /** Id of the entry or product concerned. */
  resourceId: string;
  state: 'pending' | 'delivered' | 'failed';
  createdAt: string;
  attempts: DeliveryAttempt[];
  /** The last request sent (headers as sent, body as text). */
  request: { headers: Record<string, string>; body: string } | null;
}

export interface DeliveryRequest {
  source: WebhookSource;
  hookId: string;
  url: string;
  topic: string;
  resourceId: string;
  /** Headers and body of one attempt (called per attempt: a signature carries a fresh timestamp). */
  build(): { headers: Record<string, string>; body: string };
}

const LOG_SIZE = 200;
const RETRYABLE = (status: number): boolean => status === 429 || status >= 500;

export interface WebhooksOptions {
  /** Waits before each retry; default [500, 2000] (three attempts in all). */
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
}

export class Webhooks {
  private readonly log: DeliveryRecord[] = [];
  private nextId = 1;
  private closed = false;
  private readonly controller = new AbortController();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private readonly retryDelaysMs: readonly number[];
  private readonly timeoutMs: number;

  constructor(options: WebhooksOptions = {}) {
    this.retryDelaysMs = options.retryDelaysMs ?? [500, 2000];
    this.timeoutMs = options.timeoutMs ?? 5_000;
  }

  /** Queues a delivery; it starts once the current request has been answered. */
  enqueue(request: DeliveryRequest): DeliveryRecord {
    const record: DeliveryRecord = {
      id: this.nextId++,
      source: request.source,
      hookId: request.hookId,
      url: request.url,
      topic: request.topic,
      resourceId: request.resourceId,
      state: 'pending',
      createdAt: new Date().toISOString(),
      attempts: [],
      request: null,
    };
    this.log.push(record);
    if (this.log.length > LOG_SIZE) this.log.splice(0, this.log.length - LOG_SIZE);
    this.schedule(record, request, 0, 0);
    return record;
  }

  private schedule(
    record: DeliveryRecord,
    request: DeliveryRequest,
    attempt: number,
    delay: number,
  ): void {
    if (this.closed) {
      record.state = 'failed';
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const run = this.attempt(record, request, attempt);
      this.running.add(run);
      void run.finally(() => this.running.delete(run));
    }, delay);
    this.timers.add(timer);
  }

  private async attempt(
    record: DeliveryRecord,
    request: DeliveryRequest,
    attempt: number,
  ): Promise<void> {
    const started = performance.now();
    const { headers, body } = request.build();
    record.request = { headers, body };
    let status: number | undefined;
    let error: string | undefined;
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.any([this.controller.signal, AbortSignal.timeout(this.timeoutMs)]),
      });
      status = response.status;
      await response.body?.cancel();
    } catch (caught) {
      error = caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught);
    }
    record.attempts.push({
      at: new Date().toISOString(),
      ...(status !== undefined ? { status } : {}),
      ...(error !== undefined ? { error } : {}),
      ms: Math.round(performance.now() - started),
    });
    if (status !== undefined && status >= 200 && status < 300) {
      record.state = 'delivered';
      return;
    }
    const delay = this.retryDelaysMs[attempt];
    if ((status === undefined || RETRYABLE(status)) && delay !== undefined && !this.closed) {
      this.schedule(record, request, attempt + 1, delay);
      return;
    }
    record.state = 'failed';
  }

  /** The log, oldest first, optionally of one source. */
  list(source?: WebhookSource): DeliveryRecord[] {
    return this.log.filter((r) => !source || r.source === source);
  }

  clear(): void {
    this.log.length = 0;
  }

  /** Stops retries and aborts deliveries in flight. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.controller.abort();
    await Promise.allSettled([...this.running]);
    for (const record of this.log) if (record.state === 'pending') record.state = 'failed';
  }
}

/**
 * Contentful's request signature (as Contentful documents it): HMAC-SHA256 in hex, with the secret, of
 * `METHOD\npath\nname1:value1;name2:value2...\nbody` over the signed headers (lower-case names,
 * sorted), which always include `x-contentful-signed-headers` and `x-contentful-timestamp`.
 */
export function contentfulSignature(
  secret: string,
  request: { method: string; path: string; headers: Record<string, string>; body: string },
  signedHeaders: readonly string[],
): string {
  const lower = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const canonicalHeaders = [...signedHeaders]
    .map((name) => name.toLowerCase())
    .sort()
    .map((name) => `${name}:${lower[name] ?? ''}`)
    .join(';');
  const canonical = [
    request.method.toUpperCase(),
    request.path,
    canonicalHeaders,
    request.body,
  ].join('\n');
  return createHmac('sha256', secret).update(canonical).digest('hex');
}

/**
 * Headers of a signed Contentful webhook request: `headers` (every one of them is signed) plus
 * `x-contentful-timestamp`, `x-contentful-signed-headers` and `x-contentful-signature`.
 */
export function signContentfulRequest(
  secret: string,
  request: { method: string; path: string; headers: Record<string, string>; body: string },
  timestamp: number = Date.now(),
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  headers['x-contentful-timestamp'] = String(timestamp);
  const names = [...new Set([...Object.keys(headers), 'x-contentful-signed-headers'])].sort();
  headers['x-contentful-signed-headers'] = names.join(',');
  headers['x-contentful-signature'] = contentfulSignature(
    secret,
    { method: request.method, path: request.path, headers, body: request.body },
    names,
  );
  return headers;
}
