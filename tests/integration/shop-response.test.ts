/**
 * The server's reply class (src/server/shop-response.ts): the request id goes into the head
 * written, in a copy of the headers handed over (a file's header object is shared by all its
 * replies: an id written into it would go out with the next request's reply), whichever form
 * `writeHead` is called in; once the server drains, a head written says `Connection: close`.
 */
import http, { type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ShopResponse, type Serving } from '../../src/server/shop-response.ts';

/** One header object shared by every reply, as the static files share theirs. */
const shared: OutgoingHttpHeaders = { 'content-type': 'text/plain', 'cache-control': 'no-cache' };
const serving: Serving = { draining: false, closeIdle: () => undefined };
let server: http.Server<typeof http.IncomingMessage, typeof ShopResponse>;
let base = '';

beforeAll(async () => {
  server = http.createServer({ ServerResponse: ShopResponse }, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const id = url.searchParams.get('id');
    res.requestId = id;
    res.serving = serving;
    const form = url.searchParams.get('form');
    if (form === 'reason') res.writeHead(200, 'OK', shared);
    else if (form === 'implicit') res.statusCode = 200;
    else res.writeHead(200, shared);
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('ShopResponse', () => {
  test('each reply carries its own id, in every form of writeHead; the shared headers stay as they were', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            id: fc.stringMatching(/^[A-Za-z0-9._:-]{1,40}$/),
            form: fc.constantFrom('headers', 'reason', 'implicit'),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (requests) => {
          const replies = await Promise.all(
            requests.map(({ id, form }) =>
              fetch(`${base}/?id=${encodeURIComponent(id)}&form=${form}`),
            ),
          );
          replies.forEach((reply, index) => {
            expect(reply.headers.get('x-request-id')).toBe(requests[index]?.id);
          });
          await Promise.all(replies.map((reply) => reply.text()));
          expect(shared).toEqual({ 'content-type': 'text/plain', 'cache-control': 'no-cache' });
        },
      ),
      { numRuns: 20 },
    );
  });

  test('no id: no header; a draining server closes the connection of a head written from then on', async () => {
    const before = await fetch(`${base}/`);
    expect(before.headers.get('x-request-id')).toBeNull();
    expect(before.headers.get('connection')).not.toBe('close');
    await before.text();
    serving.draining = true;
    try {
      const during = await fetch(`${base}/?id=a`);
      expect(during.headers.get('connection')).toBe('close');
      await during.text();
    } finally {
      serving.draining = false;
    }
  });
});
