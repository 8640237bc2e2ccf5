/**
 * The services the API middleware serves, wired to the shop's config. Brevo joins here when
 * its methods exist; until then `/api/brevo/*` answers 500 "Unknown middleware" (spec §8).
 */
import { accountServices, bigcommerceForHost, contentful } from '../config.ts';
import { requestHost } from '../storefronts.ts';
import { bigcommerceService } from './bigcommerce.ts';
import { contentfulService } from './contentful-methods.ts';
import type { ApiServices } from './handle.ts';

export const apiServices: ApiServices = {
  // The client of the storefront of the request's host carries its channel id (spec §7).
  // Account methods read the signed session cookie (never a customer id from the body).
  bigcommerce: bigcommerceService(
    (request) => bigcommerceForHost(requestHost(request)),
    accountServices(),
  ),
  // Navigations read the category tree of the request's storefront (its channel).
  contentful: contentfulService({
    client: () => contentful(),
    commerce: (request) => bigcommerceForHost(requestHost(request)),
  }),
};
