/**
 * Helpers of the sandbox's webhook tests: its delivery log, and an independent verifier of
 * Contentful's request signature.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { expect } from 'vitest';
import type { TestSandbox } from '../src/testing.ts';

// -- the sandbox's webhook delivery log ------------------------------------------------------

/** One delivery of the sandbox's webhook log. */
export interface Delivery {
  source: string;
  topic: string;
  resourceId: string;
  state: string;
  attempts: { status?: number; error?: string }[];
}

/**
 * The sandbox's webhook log (`sandbox` read at call time): its deliveries, and the log once
 * `count` deliveries of a source are settled.
 */
export function webhookLog(sandbox: () => TestSandbox) {
  async function deliveries(source?: string): Promise<Delivery[]> {
    const response = await fetch(
      `${sandbox().url}/__sandbox/webhook-deliveries${source ? `?source=${source}` : ''}`,
      { headers: { 'X-Auth-Token': sandbox().token } },
    );
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: Delivery[] }).data;
  }

  /**
   * The log once `count` deliveries of `source` are settled. The sandbox runs in this process:
   * between two reads of the log, one turn of the loop lets its deliveries move (no timer).
   */
  async function settled(count: number, source: string): Promise<Delivery[]> {
    for (let i = 0; i < 10_000; i++) {
      const list = await deliveries(source);
      if (list.length >= count && list.every((d) => d.state !== 'pending')) return list;
      await new Promise((ok) => setImmediate(ok));
    }
    throw new Error('deliveries did not settle');
  }

  return { deliveries, settled };
}

// -- Contentful request signing, checked independently ----------------------------------------

/**
 * An independent verifier, following Contentful's documentation: the signed headers listed in
 * `x-contentful-signed-headers` (lower-case, sorted), `METHOD\npath\nname:value;...\nbody`,
 * HMAC-SHA256 hex, constant-time compare, timestamp at most 30 s old.
 */
export function verify(
  secret: string,
  request: {
    method: string;
    path: string;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  },
  now = Date.now(),
): boolean {
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const signature = header('x-contentful-signature');
  const signed = header('x-contentful-signed-headers');
  const timestamp = Number(header('x-contentful-timestamp'));
  if (!signature || !signed || !Number.isFinite(timestamp) || now - timestamp > 30_000)
    return false;
  const names = signed.split(',').map((n) => n.trim().toLowerCase());
  if (!names.includes('x-contentful-signed-headers') || !names.includes('x-contentful-timestamp'))
    return false;
  const canonicalHeaders = [...names]
    .sort()
    .map((n) => `${n}:${header(n) ?? ''}`)
    .join(';');
  const expected = createHmac('sha256', secret)
    .update(`${request.method}\n${request.path}\n${canonicalHeaders}\n${request.body}`)
    .digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
