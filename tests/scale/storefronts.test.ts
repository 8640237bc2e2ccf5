/**
 * The storefront per host, on the build, with `STOREFRONTS` as `.env.example` documents it
 * (`{"default":{…},"hosts":{"pro.literie-exemple.fr":{…,"channelId":2,…}}}`, set by the checks'
 * environment, `scripts/lib/test-env.ts`): the build was made with it and the storefront server
 * starts with it (a form the parser refused once stopped both), and each request host gets its
 * storefront's channel: the default host the store's channel 1 and its name, the documented
 * second host channel 2 (which the sandbox does not have: its answer says so), an unknown host
 * the default. Run by `npm test` after the build (vitest project `scale`); by hand:
 * `DIST_DIR=dist-x SANDBOX_PORT=N npx vitest run --project scale tests/scale/storefronts.test.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_ENV } from '../../scripts/lib/test-env.ts';
import { ensureUpstream, type Upstream } from '../../scripts/lib/upstream.ts';
import { startServer } from '../../src/server/http-server.ts';
import { DIST_DIR, requireBuild, SANDBOX_PORT } from './helpers/suite.ts';

let work = '';
let upstream: Upstream | undefined;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
let port = 0;

beforeAll(async () => {
  requireBuild();
  work = mkdtempSync(path.join(tmpdir(), 'shop-storefronts-'));
  upstream = await ensureUpstream({ port: SANDBOX_PORT, dataDir: path.join(work, 'sandbox') });
  // STOREFRONTS is public: the build baked it in (made with the checks' environment).
  Object.assign(process.env, upstream.env);
  server = await startServer({ distDir: DIST_DIR, port: 0, renderCache: false });
  port = Number(new URL(server.url).port);
});

afterAll(async () => {
  await server?.close();
  await upstream?.close();
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

/** `POST /api/bigcommerce/getChannel` as a page of `host` calls it (same origin). */
function getChannel(host: string): Promise<{ status: number; json: unknown }> {
  const body = JSON.stringify([]);
  return new Promise((resolve, reject) => {
    const call = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/bigcommerce/getChannel',
        headers: {
          host,
          origin: `http://${host}`,
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: response.statusCode ?? 0,
            json: text === '' ? null : (JSON.parse(text) as unknown),
          });
        });
      },
    );
    call.on('error', reject);
    call.end(body);
  });
}

describe('STOREFRONTS as documented: the storefront of each host', () => {
  test('the documented value is the one in force', () => {
    expect(TEST_ENV.STOREFRONTS).toContain('"hosts":{"pro.literie-exemple.fr"');
  });

  test("the default host: the store's channel 1, with its name", async () => {
    const reply = await getChannel(`127.0.0.1:${String(port)}`);
    expect(reply).toMatchObject({
      status: 200,
      json: { data: { id: 1, name: 'Literie Lumière' } },
    });
  });

  test('an unknown host: the default storefront, the same channel', async () => {
    const reply = await getChannel('inconnu.example');
    expect(reply).toMatchObject({ status: 200, json: { data: { id: 1 } } });
  });

  test('the documented second host: its own channel 2, which the sandbox answers it lacks', async () => {
    const reply = await getChannel('pro.literie-exemple.fr');
    // Channel 1 would have answered 200 with the store's channel: the call asked for channel 2.
    expect(reply).toEqual({
      status: 404,
      json: { message: 'Channel not found.', statusCode: 404 },
    });
  });
});
