/**
 * A shopper's listing view answered by the middleware (with-listing-view.ts): only GET and HEAD
 * of the listing view route, never a reseller's; no assembled reply, and the page renders.
 */
import { createContext } from 'astro/middleware';
import { describe, expect, test } from 'vitest';
import {
  createWithListingView,
  LISTING_VIEW_ROUTE,
} from '../../src/shop/middleware/with-listing-view.ts';

const RENDERED = 'rendered';
const ASSEMBLED = 'assembled';

async function run(options: {
  route?: string;
  method?: string;
  reseller?: boolean;
  assembles?: boolean;
}) {
  let asked = 0;
  const handler = createWithListingView({
    assemble: () => {
      asked += 1;
      return Promise.resolve(options.assembles === false ? null : new Response(ASSEMBLED));
    },
  });
  const request = new Request('http://shop.test/vue/c/matelas?page=2', {
    method: options.method ?? 'GET',
  });
  const context = createContext({ request, defaultLocale: 'fr' });
  context.routePattern = options.route ?? LISTING_VIEW_ROUTE;
  if (options.reseller !== undefined) context.locals.isReseller = options.reseller;
  const response = (await handler(context, () =>
    Promise.resolve(new Response(RENDERED)),
  )) as Response;
  return { asked, body: await response.text() };
}

describe('createWithListingView', () => {
  test("a shopper's view is the assembled reply", async () => {
    expect(await run({})).toEqual({ asked: 1, body: ASSEMBLED });
    expect(await run({ method: 'HEAD', reseller: false })).toEqual({ asked: 1, body: ASSEMBLED });
  });

  test('a view that cannot be assembled is rendered', async () => {
    expect(await run({ assembles: false })).toEqual({ asked: 1, body: RENDERED });
  });

  test.each([
    ['a reseller', { reseller: true }],
    ['another route', { route: '/[...path]' }],
    ['the search results', { route: '/resultats-de-recherche/[term]' }],
    ['a POST', { method: 'POST' }],
  ])('%s: rendered, nothing assembled', async (_name, options) => {
    expect(await run(options)).toEqual({ asked: 0, body: RENDERED });
  });
});
