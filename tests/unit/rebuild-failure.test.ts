/**
 * Why a build or publish failed (src/server/rebuild/failure.ts): the error's and its causes'
 * own messages with the failing upstream call or URL, never a stack line nor a secret; whether
 * it may pass (an upstream 5xx or 429, a timeout, a lost connection) or fails again until the
 * data changes (a refused reply, a 404, a bad value); the `BUILD_FAILURE` line a build prints
 * and the supervisor reads back (src/server/rebuild/builder.ts).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BigCommerceError } from '../../src/shop/connectors/bigcommerce/errors.ts';
import {
  describeFailure,
  failureLine,
  readFailureLine,
  secretsOf,
} from '../../src/server/rebuild/failure.ts';

const env = {
  BIGCOMMERCE_ACCESS_TOKEN: 'bc-token-0123456789abcdef',
  CONTENTFUL_ACCESS_TOKEN: 'cf-token-fedcba9876543210',
  REDIS_URL: 'redis://:hunter22secret@redis.internal:6379',
  SESSION_SECRET: 's3cr3t-session-value-42',
  PORT: '4321',
};

/** What undici's fetch throws for a stalled host: `fetch failed`, caused by the timeout. */
function fetchFailed(code: string, message: string): TypeError {
  const cause = Object.assign(new Error(message), { code });
  return new TypeError('fetch failed', { cause });
}

describe('describeFailure: transient or not', () => {
  test.each([
    [
      'an upstream 503',
      new BigCommerceError('BigCommerce answered 503', {
        code: 'UPSTREAM_ERROR',
        status: 503,
        endpoint: 'GET v3/catalog/products',
      }),
    ],
    [
      'a 429',
      new BigCommerceError('Too many requests', {
        code: 'RATE_LIMITED',
        status: 429,
        endpoint: 'GET v3/catalog/products',
      }),
    ],
    [
      'a timeout of the upstream client',
      new BigCommerceError('BigCommerce GET v3/catalog/products timed out', {
        code: 'TIMEOUT',
        status: 504,
        endpoint: 'GET v3/catalog/products',
      }),
    ],
    [
      'an unreachable upstream',
      new BigCommerceError('BigCommerce GET v3/catalog/categories is unreachable', {
        code: 'NETWORK_ERROR',
        status: 502,
        endpoint: 'GET v3/catalog/categories',
      }),
    ],
    [
      'a stalled picture host (headers)',
      fetchFailed('UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error'),
    ],
    ['a stalled picture host (body)', fetchFailed('UND_ERR_BODY_TIMEOUT', 'Body Timeout Error')],
    ['a connect timeout', fetchFailed('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error')],
    ['a reset connection', fetchFailed('ECONNRESET', 'read ECONNRESET')],
    ['a refused connection', fetchFailed('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9')],
    [
      'an AbortSignal.timeout',
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
    ],
    [
      "Astro's picture fetch answered 503",
      new Error(
        'Failed to load remote image https://cdn11.bigcommerce.com/a.jpg. The request did not return a 200 OK response. (received 503))',
      ),
    ],
    [
      'wrapped by Astro',
      new Error('Failed to call getStaticPaths', {
        cause: fetchFailed('UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error'),
      }),
    ],
  ])('%s is transient', (_what, error) => {
    expect(describeFailure(error, env).transient).toBe(true);
  });

  test.each([
    [
      'a reply the schema refuses',
      new BigCommerceError(
        'Unexpected BigCommerce reply for GET v3/catalog/products at data.0.name',
        { code: 'INVALID_RESPONSE', status: 502, endpoint: 'GET v3/catalog/products' },
      ),
    ],
    [
      'a 404',
      new BigCommerceError('Not found', {
        code: 'NOT_FOUND',
        status: 404,
        endpoint: 'GET v3/catalog/products/7',
      }),
    ],
    [
      'a name too long for a file',
      Object.assign(
        new Error("ENAMETOOLONG: name too long, open '/srv/dist/client/p/7/œœœ/index.html'"),
        { code: 'ENAMETOOLONG' },
      ),
    ],
    [
      'no matching static path',
      new Error(
        '[NoMatchingStaticPathFound] A `getStaticPaths()` route pattern was matched, but no matching static path was found',
      ),
    ],
    [
      "Astro's picture fetch answered 404",
      new Error('Failed to load remote image https://cdn11.bigcommerce.com/a.jpg. (received 404))'),
    ],
    ['a string', 'boom'],
  ])('%s is not', (_what, error) => {
    expect(describeFailure(error, env).transient).toBe(false);
  });
});

describe('describeFailure: the cause', () => {
  test('the messages of the chain, the endpoint and the code, on one line, no stack', () => {
    const error = new Error('Failed to call getStaticPaths for src/pages/p/[id]/[slug].astro', {
      cause: new BigCommerceError('BigCommerce GET v3/catalog/products timed out', {
        code: 'TIMEOUT',
        status: 504,
        endpoint: 'GET v3/catalog/products',
      }),
    });
    const { message } = describeFailure(error, env);
    expect(message).toBe(
      'Failed to call getStaticPaths for src/pages/p/[id]/[slug].astro: BigCommerce GET v3/catalog/products timed out (TIMEOUT 504)',
    );
    expect(message).not.toMatch(/\n|\bat\s/);
  });

  test('a fetch failure names its cause', () => {
    expect(
      describeFailure(fetchFailed('UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error'), env).message,
    ).toBe('fetch failed: Headers Timeout Error (UND_ERR_HEADERS_TIMEOUT)');
  });

  test('secrets of the environment and of URLs are removed', () => {
    const error = new Error(
      `GET https://user:pw@api.example/v3/x?access_token=${env.BIGCOMMERCE_ACCESS_TOKEN}&a=1 failed with ${env.CONTENTFUL_ACCESS_TOKEN} on ${env.REDIS_URL}`,
    );
    const { message } = describeFailure(error, env);
    for (const secret of secretsOf(env)) expect(message).not.toContain(secret);
    expect(message).not.toContain('user:pw');
    expect(message).not.toContain('hunter22');
    expect(message).toContain('https://api.example/v3/x');
    expect(message).not.toContain('access_token');
    expect(message).toContain('redis://redis.internal:6379');
  });

  test('property: no secret value of the environment survives, whatever the message', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 8, maxLength: 40 }).filter((v) => v.trim().length >= 8),
        fc.array(fc.string({ maxLength: 30 }), { maxLength: 4 }),
        fc.constantFrom('API_TOKEN', 'WEBHOOK_SECRET', 'SMTP_PASSWORD', 'BREVO_API_KEY'),
        (secret, around, name) => {
          const text = [...around, secret, ...around].join(' ');
          const error = new Error(text, { cause: new Error(`again ${secret}`) });
          const { message } = describeFailure(error, { [name]: secret });
          return !message.includes(secret) && !message.includes('\n');
        },
      ),
    );
  });

  test('a cycle of causes or a deep chain ends', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(describeFailure(a, env).message).toBe('a: b');
    let deep: Error = new Error('root');
    for (let i = 0; i < 100; i++) deep = new Error(`level ${i}`, { cause: deep });
    expect(describeFailure(deep, env).message.length).toBeLessThanOrEqual(1_000);
  });
});

describe('the BUILD_FAILURE line', () => {
  test('written and read back, the last one of the output', () => {
    const first = { message: 'first', transient: false };
    const last = { message: 'BigCommerce GET v3/catalog/products answered 503', transient: true };
    const output = [
      'building…',
      failureLine(first),
      'Error: astro build failed',
      '    at async main (/srv/scripts/build.ts:165:20)',
      failureLine(last),
      '',
    ].join('\n');
    expect(readFailureLine(output)).toEqual(last);
  });

  test('none, or one that is not one: null', () => {
    expect(readFailureLine('exit code 1\n    at async …build.ts:165:20')).toBeNull();
    expect(readFailureLine('BUILD_FAILURE {"message":1}')).toBeNull();
    expect(readFailureLine('BUILD_FAILURE not json')).toBeNull();
  });

  test('property: any cause survives the round trip on one line', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), fc.boolean(), (message, transient) => {
        const line = failureLine({ message, transient });
        expect(line).not.toContain('\n');
        const read = readFailureLine(`noise\n${line}\n`);
        expect(read?.transient).toBe(transient);
      }),
    );
  });
});
