/**
 * Every fetch of a build or a server worker has a deadline (src/server/fetch-deadlines.ts),
 * against local hosts that stall: one accepts the connection and never answers, one sends its
 * headers then never the rest of the body. Node's own `fetch` and Astro's remote picture fetch
 * (what a build and a publish use for a product photo) both fail with undici's timeout, in the
 * main thread and in a worker thread (the build's render threads), which
 * rebuild/failure.ts counts as transient, instead of waiting for ever (Node's default: 300 s
 * for the headers, no limit for the body).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { fetchWithRedirects } from 'astro/assets/utils';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { fetchTimeoutFromEnv, installFetchDeadlines } from '../../src/server/fetch-deadlines.ts';
import { describeFailure } from '../../src/server/rebuild/failure.ts';

let silent: http.Server;
let halfBody: http.Server;
let quick: http.Server;
let restore: (() => void) | null = null;

const listen = async (server: http.Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
};
const urls = { silent: '', halfBody: '', quick: '' };

beforeAll(async () => {
  silent = http.createServer(() => undefined); // never answers
  halfBody = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': '100000' });
    res.write(Buffer.alloc(10)); // then nothing
  });
  quick = http.createServer((_req, res) => {
    res.end('ok');
  });
  urls.silent = await listen(silent);
  urls.halfBody = await listen(halfBody);
  urls.quick = await listen(quick);
});

afterEach(() => {
  restore?.();
  restore = null;
});

afterAll(async () => {
  for (const server of [silent, halfBody, quick]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** The code of the error a failed fetch was caused by. */
const causeCode = (error: unknown) =>
  ((error as { cause?: { code?: unknown } }).cause?.code as string | undefined) ?? '';

describe('fetch deadlines', () => {
  test('a host that never answers: the fetch fails on the headers timeout', async () => {
    restore = installFetchDeadlines(300);
    const error: unknown = await fetch(`${urls.silent}/a.jpg`).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(causeCode(error)).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(describeFailure(error)).toEqual({
      message: 'fetch failed: Headers Timeout Error (UND_ERR_HEADERS_TIMEOUT)',
      transient: true,
    });
  });

  test('a body that stops coming: reading it fails on the body timeout', async () => {
    // Long enough for the headers, which come at once, on a loaded machine.
    restore = installFetchDeadlines(1_000);
    const response = await fetch(`${urls.halfBody}/a.jpg`);
    const error: unknown = await response.arrayBuffer().then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(causeCode(error)).toBe('UND_ERR_BODY_TIMEOUT');
    expect(describeFailure(error).transient).toBe(true);
  });

  test("Astro's remote picture fetch (a build's, a publish's) gives up the same way", async () => {
    restore = installFetchDeadlines(300);
    const error: unknown = await fetchWithRedirects({
      url: `${urls.silent}/photo.jpg`,
      fetchFn: fetch,
      imageConfig: { domains: [], remotePatterns: [{ protocol: 'http', hostname: '127.0.0.1' }] },
    }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).not.toBeNull();
    expect(describeFailure(error).transient).toBe(true);
  });

  test('a host that answers is not affected, and restoring puts the previous dispatcher back', async () => {
    restore = installFetchDeadlines(2_000);
    expect(await (await fetch(urls.quick)).text()).toBe('ok');
    const dispatcher = Symbol.for('undici.globalDispatcher.1');
    const bounded = (globalThis as Record<symbol, unknown>)[dispatcher];
    restore();
    restore = null;
    expect((globalThis as Record<symbol, unknown>)[dispatcher]).not.toBe(bounded);
    expect(await (await fetch(urls.quick)).text()).toBe('ok');
  });

  test('FETCH_TIMEOUT_MS: 30 s by default, a bad value named', () => {
    expect(fetchTimeoutFromEnv({})).toBe(30_000);
    expect(fetchTimeoutFromEnv({ FETCH_TIMEOUT_MS: ' 5000 ' })).toBe(5_000);
    expect(() => fetchTimeoutFromEnv({ FETCH_TIMEOUT_MS: '5s' })).toThrow(/FETCH_TIMEOUT_MS/);
    expect(() => fetchTimeoutFromEnv({ FETCH_TIMEOUT_MS: '10' })).toThrow(/FETCH_TIMEOUT_MS/);
  });
});

describe('in a worker thread (the build renders pages in threads)', () => {
  test('a thread gets its own deadlines', async () => {
    const module = new URL('../../src/server/fetch-deadlines.ts', import.meta.url).href;
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      import(workerData.module).then(async ({ installFetchDeadlines }) => {
        installFetchDeadlines(300);
        const failure = await fetch(workerData.url).then(() => null, (error) => error);
        parentPort.postMessage(failure?.cause?.code ?? 'answered');
      }, (error) => parentPort.postMessage(String(error)));
    `;
    const worker = new Worker(code, {
      eval: true,
      workerData: { module, url: `${urls.silent}/a.jpg` },
    });
    const reply = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(reply).toBe('UND_ERR_HEADERS_TIMEOUT');
  });
});
