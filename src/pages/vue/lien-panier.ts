/**
 * The on-demand route of cart links (`src/lib/commerce/cart-link.ts`): the middleware's
 * redirect-to-cart answers first when the link's token matches (cart cookie, then /panier).
 * Reaching this route means it did not: the shopper goes on to the page the link named,
 * without the link's parameters, through the one redirect-target check.
 */
import type { APIRoute } from 'astro';
import { CART_LINK_PAGE_PARAM } from '../../lib/commerce/cart-link.ts';
import { localPath } from '../../lib/commerce/redirect-target.ts';

export const prerender = false;

export const GET: APIRoute = ({ url }) => {
  const page = localPath(url.searchParams.get(CART_LINK_PAGE_PARAM) ?? '/') ?? '/';
  return new Response(null, {
    status: 302,
    headers: { Location: page, 'Cache-Control': 'no-store' },
  });
};
