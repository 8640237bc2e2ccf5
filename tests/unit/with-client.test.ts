/**
 * The peer the middleware takes a request's client from (with-client.ts): the socket's address;
 * none for a render the server shares (SHARED_RENDER_PEER) or when the adapter cannot tell it.
 */
import type { APIContext } from 'astro';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  parseTrustedProxies,
  SHARED_RENDER_PEER,
  type ClientInfo,
} from '../../src/shop/auth/client.ts';
import { createWithClient } from '../../src/shop/middleware/with-client.ts';

const withClient = createWithClient({ trustedProxies: parseTrustedProxies(undefined) });

async function clientOf(clientAddress: () => string): Promise<ClientInfo | undefined> {
  const locals: { clientInfo?: ClientInfo } = {};
  const context = {
    request: new Request('http://localhost:4321/c/matelas?page=2'),
    isPrerendered: false,
    locals,
    get clientAddress() {
      return clientAddress();
    },
  } as unknown as APIContext;
  await withClient(context, () => Promise.resolve(new Response('ok')));
  return locals.clientInfo;
}

describe('the peer address of a request', () => {
  test('a shared render has no peer', async () => {
    expect((await clientOf(() => SHARED_RENDER_PEER))?.address).toBe('');
  });

  test('an adapter that cannot tell the address: no peer', async () => {
    const client = await clientOf(() => {
      throw new Error('No client address');
    });
    expect(client?.address).toBe('');
  });

  test("a socket's address is the client's (no proxy trusted)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.ipV4(), fc.ipV6()), async (ip) => {
        const address = (await clientOf(() => ip))?.address ?? '';
        expect(address).not.toBe('');
        expect(SHARED_RENDER_PEER).not.toBe(ip);
      }),
    );
  });
});
