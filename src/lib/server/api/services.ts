/**
 * The services the API middleware serves, wired to the shop's config. Contentful and Brevo
 * join here when their connectors exist; until then `/api/contentful/*` and `/api/brevo/*`
 * answer 500 "Unknown middleware" (spec §8).
 */
import { accountServices, bigcommerceForHost } from '../config.ts';
import { requestHost } from '../storefronts.ts';
import { bigcommerceService } from './bigcommerce.ts';
import type { ApiServices } from './handle.ts';

export const apiServices: ApiServices = {
  // The client of the storefront of the request's host carries its channel id (spec §7).
  // Account methods read the signed session cookie (never a customer id from the body).
  bigcommerce: bigcommerceService(
    (request) => bigcommerceForHost(requestHost(request)),
    accountServices(),
  ),
};
