/**
 * The probes and the drained stop over HTTP (src/server/health.ts, src/server/shutdown.ts): a
 * supervised server (`node src/server/serve.ts`) on a tiny dist whose release holds files named
 * like the probes. `/healthz` and `/readyz` answer JSON, `no-store`, never the release's files;
 * HEAD has no body, POST is 405. On SIGTERM `/readyz` fails at once with `draining` while pages
 * are still served; after `SHUTDOWN_DELAY_MS` the drain begins, a request in flight on a
 * kept-alive connection still gets its whole reply, with `Connection: close`, and the process
 * exits 0. With `REDIS_URL`, `/readyz`
 * fails with `store` when Redis does not answer (nothing listening, or Redis stopped).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../../src/server/free-port.ts';
import { startServe, writeTinyDist, type ShopChild } from './helpers/rebuild.ts';
import { redisAvailable, startRedis } from './helpers/redis.ts';

let root: string;
let dist: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'health-'));
  dist = path.join(root, 'dist');
  await writeTinyDist(dist);
  // Files of the release at the probes' addresses: never what a probe answers.
  await writeFile(path.join(dist, 'client/healthz.html'), '<h1>from the release</h1>');
  await writeFile(path.join(dist, 'client/readyz'), 'from the release');
  // `/lent` says it arrived, then answers once the test writes `go`.
  await writeFile(
    path.join(dist, 'server/entry.mjs'),
    `import { existsSync, writeFileSync } from 'node:fs';
    export async function handler(req, res) {
      if (req.url === '/lent') {
        writeFileSync(process.env.ARRIVED_FILE, '1');
        while (!existsSync(process.env.GO_FILE)) await new Promise((r) => setTimeout(r, 20));
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('fini');
        return;
      }
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Introuvable</h1>');
    }`,
  );
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const startCopy = (env: NodeJS.ProcessEnv = {}): Promise<ShopChild> =>
  startServe({
    dist,
    releases: path.join(root, 'releases'),
    env: {
      // Stopped by the tests at once (the drain test sets its own delay).
      SHUTDOWN_DELAY_MS: '0',
      ARRIVED_FILE: path.join(root, 'arrived'),
      GO_FILE: path.join(root, 'go'),
      ...env,
    },
  });

/** Polls `until` every 50 ms (at most `timeoutMs`). */
async function waitFor(until: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await until())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${String(timeoutMs)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A request (its own connection unless `agent` is given): status, headers and body. */
function get(url: string, method = 'GET', agent: http.Agent | false = false) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const request = http.request(url, { method, agent }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        });
      });
      request.on('error', reject);
      request.end();
    },
  );
}

describe('the probes', () => {
  let copy: ShopChild;
  beforeAll(async () => {
    copy = await startCopy();
  });
  afterAll(async () => {
    await copy.stop();
  });

  test('/healthz and /readyz: 200 JSON, no-store, security headers, never a release file', async () => {
    for (const [probe, body] of [
      ['/healthz', { status: 'ok' }],
      ['/readyz', { status: 'ready' }],
    ] as const) {
      const reply = await get(`${copy.base}${probe}`);
      expect(reply.status, probe).toBe(200);
      expect(JSON.parse(reply.body)).toEqual(body);
      expect(reply.headers['cache-control']).toBe('no-store');
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers.etag).toBeUndefined();
      const head = await get(`${copy.base}${probe}`, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      const post = await get(`${copy.base}${probe}`, 'POST');
      expect(post.status).toBe(405);
      expect(post.headers.allow).toBe('GET, HEAD, OPTIONS');
      // With a query string too.
      expect((await get(`${copy.base}${probe}?x=1`)).body).not.toContain('release');
    }
  });
});

describe('the drained stop', () => {
  test('SIGTERM: unready at once, still serving, a request in flight finished, exit 0', async () => {
    const copy = await startCopy({ SHUTDOWN_DELAY_MS: '400', SHUTDOWN_TIMEOUT_MS: '20000' });
    expect((await get(`${copy.base}/readyz`)).status).toBe(200);
    // A request in flight across the whole stop, on a kept-alive connection.
    const keepAlive = new http.Agent({ keepAlive: true });
    const slow = get(`${copy.base}/lent`, 'GET', keepAlive);
    await waitFor(() => existsSync(path.join(root, 'arrived')), 'the slow request arrived');
    const exited = new Promise<number | null>((resolve) => {
      copy.child.once('exit', (code) => {
        resolve(code);
      });
    });
    copy.child.kill('SIGTERM');
    await waitFor(
      async () => (await get(`${copy.base}/readyz`)).status === 503,
      'readyz failing',
      5_000,
    );
    const unready = await get(`${copy.base}/readyz`);
    expect(JSON.parse(unready.body)).toMatchObject({ status: 'unready', check: 'draining' });
    expect(unready.headers['cache-control']).toBe('no-store');
    expect((await get(`${copy.base}/healthz`)).status).toBe(200);
    expect((await get(`${copy.base}/`)).status).toBe(200);
    await waitFor(() => copy.output().includes('[serve] draining'), 'the drain began');
    await writeFile(path.join(root, 'go'), '1');
    const reply = await slow;
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('fini');
    // Its connection closes with it: the drain does not wait for it to idle out.
    expect(reply.headers.connection).toBe('close');
    keepAlive.destroy();
    expect(await exited).toBe(0);
    expect(copy.output()).toContain('[serve] drained: stopped');
  });
});

describe('readiness and the state store', () => {
  test('REDIS_URL with nothing listening: 503 naming the store, /healthz still 200', async () => {
    const copy = await startCopy({ REDIS_URL: `redis://127.0.0.1:${String(await freePort())}` });
    try {
      const reply = await get(`${copy.base}/readyz`);
      expect(reply.status).toBe(503);
      expect(JSON.parse(reply.body)).toMatchObject({ status: 'unready', check: 'store' });
      expect((await get(`${copy.base}/healthz`)).status).toBe(200);
    } finally {
      await copy.stop();
    }
  });

  test.runIf(redisAvailable())('ready while Redis answers, 503 once it stops', async () => {
    const redis = await startRedis();
    const copy = await startCopy({ REDIS_URL: redis.url });
    try {
      expect((await get(`${copy.base}/readyz`)).status).toBe(200);
      await redis.stop();
      const reply = await get(`${copy.base}/readyz`);
      expect(reply.status).toBe(503);
      expect(JSON.parse(reply.body)).toMatchObject({ check: 'store' });
    } finally {
      await copy.stop();
      await redis.stop();
    }
  });
});
