import { describe, expect, test } from 'vitest';
import {
  createKeyedQueue,
  createRateLimiter,
  isJsonRequest,
  isSameOriginRequest,
} from '../../src/lib/server/security.ts';

const post = (headers: Record<string, string>, url = 'https://shop.test/api/bigcommerce/x') =>
  new Request(url, { method: 'POST', headers });

describe('same-origin check of state-changing calls', () => {
  test.each([
    ['Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin' }, true],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }, false],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, false],
    ['Sec-Fetch-Site none (typed URL)', { 'sec-fetch-site': 'none' }, false],
    [
      'Sec-Fetch-Site wins over a matching Origin',
      { 'sec-fetch-site': 'cross-site', origin: 'https://shop.test' },
      false,
    ],
    ['matching Origin', { origin: 'https://shop.test' }, true],
    ['Origin of another scheme', { origin: 'http://shop.test' }, false],
    ['Origin of another host', { origin: 'https://evil.test' }, false],
    ['Origin null', { origin: 'null' }, false],
    ['neither header', {}, false],
  ])('%s', (_case, headers, expected) => {
    expect(isSameOriginRequest(post(headers))).toBe(expected);
  });
});

describe('JSON content type', () => {
  test.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON', true],
    ['text/plain', false],
    ['application/x-www-form-urlencoded', false],
    ['multipart/form-data; boundary=x', false],
    ['application/jsonp', false],
  ])('%s', (type, expected) => {
    expect(isJsonRequest(post({ 'content-type': type }))).toBe(expected);
  });

  test('no content type', () => {
    expect(isJsonRequest(new Request('https://shop.test/', { method: 'POST' }))).toBe(false);
  });
});

describe('rate limiter', () => {
  test('refuses after the limit until the window ends; reset forgets', () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 2, windowMs: 1_000, now: () => now });
    const seen: boolean[] = [];
    for (let i = 0; i < 3; i += 1) {
      seen.push(limiter.allows('a'));
      limiter.fail('a');
    }
    seen.push(limiter.allows('b'));
    now = 999;
    seen.push(limiter.allows('a'));
    now = 1_000;
    seen.push(limiter.allows('a'));
    limiter.fail('a');
    limiter.fail('a');
    limiter.reset('a');
    seen.push(limiter.allows('a'));
    expect(seen).toEqual([true, true, false, true, false, true, true]);
  });

  test('bounded: the oldest keys go first when full', () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 2 });
    limiter.fail('a');
    limiter.fail('b');
    limiter.fail('c');
    expect([limiter.allows('a'), limiter.allows('b'), limiter.allows('c')]).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe('keyed queue', () => {
  test('tasks of one key run one at a time, in order; other keys run alongside', async () => {
    const queue = createKeyedQueue();
    const log: string[] = [];
    const task = (name: string, ms: number) => () =>
      new Promise<string>((resolve) => {
        log.push(`start ${name}`);
        setTimeout(() => {
          log.push(`end ${name}`);
          resolve(name);
        }, ms);
      });
    const results = await Promise.all([
      queue.run('cart', task('a1', 20)),
      queue.run('cart', task('a2', 1)),
      queue.run('other', task('b1', 5)),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log).toEqual(['start a1', 'start b1', 'end b1', 'end a1', 'start a2', 'end a2']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(queue.size).toBe(0);
  });

  test('a failed task does not stop the next', async () => {
    const queue = createKeyedQueue();
    const failed = queue.run('k', () => Promise.reject(new Error('boom')));
    const next = queue.run('k', () => Promise.resolve('ok'));
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ok');
  });
});
