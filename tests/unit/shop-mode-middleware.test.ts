/**
 * spec §6 reseller mode on pages rendered on request (with-shop-mode.ts): only a session the
 * server knows as a reseller's gets the reseller page; the cookie alone grants nothing.
 */
import { createContext } from 'astro/middleware';
import { describe, expect, test } from 'vitest';
import type { ResellerVisitor } from '../../src/lib/commerce/reseller.ts';
import { CONSUMER_ONLY_END, CONSUMER_ONLY_START } from '../../src/lib/commerce/shop-mode.ts';
import { createWithShopMode } from '../../src/shop/middleware/with-shop-mode.ts';

const PAGE = `<html><h1>Matelas</h1>${CONSUMER_ONLY_START}<form>Lettre</form>${CONSUMER_ONLY_END}<a href="/les-yeux-fermes">Podcast</a></html>`;

async function run(path: string, who: ResellerVisitor, cookie: string, enabled = true) {
  let lookups = 0;
  const handler = createWithShopMode({
    enabled,
    visitor: () => {
      lookups += 1;
      return Promise.resolve(who);
    },
  });
  const request = new Request(`http://shop.test${path}`, { headers: { cookie } });
  const context = createContext({ request, defaultLocale: 'fr' });
  const response = (await handler(context, () =>
    Promise.resolve(
      new Response(PAGE, {
        headers: { 'content-type': 'text/html', 'cache-control': 'public, s-maxage=60' },
      }),
    ),
  )) as Response;
  return {
    lookups,
    isReseller: context.locals.isReseller,
    cacheControl: response.headers.get('cache-control'),
    // Astro writes the context's cookies on the reply after the middleware.
    setCookie: Array.from(context.cookies.headers()),
    body: await response.text(),
  };
}

describe('createWithShopMode', () => {
  test('a reseller with the cookie: the reseller page, private', async () => {
    const reply = await run('/c/matelas', 'reseller', 'mode-revendeur=1');
    expect(reply).toMatchObject({ isReseller: true, cacheControl: 'private, no-store' });
    expect(reply.body).toBe('<html data-reseller><h1>Matelas</h1>Podcast</html>');
  });

  test.each([
    ['a customer who is no reseller', 'customer'],
    ['a visitor', 'visitor'],
  ] as const)(
    '%s with a forged cookie: the shared page, and the cookie cleared',
    async (_, who) => {
      const reply = await run('/c/matelas', who, 'mode-revendeur=1');
      expect(reply).toMatchObject({ isReseller: false, cacheControl: 'public, s-maxage=60' });
      expect(reply.body).toBe(PAGE);
      expect(reply.setCookie.join()).toMatch(
        /^mode-revendeur=deleted; Path=\/; Expires=Thu, 01 Jan 1970/,
      );
    },
  );

  test.each([
    ['no cookie: no session lookup', '/c/matelas', '', true],
    ['the area off', '/c/matelas', 'mode-revendeur=1', false],
    ['the API', '/api/bigcommerce/getCart', 'mode-revendeur=1', true],
    ['the area itself (its own layout)', '/espace-revendeur', 'mode-revendeur=1', true],
  ])('%s: left alone', async (_, path, cookie, enabled) => {
    const reply = await run(path, 'reseller', cookie, enabled);
    expect(reply).toMatchObject({ lookups: 0, isReseller: false, body: PAGE });
  });
});
