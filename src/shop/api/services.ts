/** The services the API middleware serves (spec §7), wired to the shop's config. */
import {
  accountServices,
  bigcommerceForHost,
  brevo,
  contentful,
  features,
} from '../config/config.ts';
import { requestHost } from '../config/storefronts.ts';
import { bigcommerceService } from './bigcommerce.ts';
import { brevoService } from './brevo-methods.ts';
import { contentfulService } from './contentful-methods.ts';
import type { ApiServices } from './handle.ts';

export const apiServices: ApiServices = {
  // The client of the storefront of the request's host carries its channel id (spec §7).
  // Account methods read the signed session cookie (never a customer id from the body).
  bigcommerce: bigcommerceService(
    (request) => bigcommerceForHost(requestHost(request)),
    accountServices(),
    // spec §1, §6: with a flag off, that feature's methods answer 404.
    features,
  ),
  // Navigations read the category tree of the request's storefront (its channel).
  contentful: contentfulService({
    client: () => contentful(),
    commerce: (request) => bigcommerceForHost(requestHost(request)),
  }),
  // The newsletter: anyone subscribes; a contact's own lists only for the logged-in customer.
  brevo: brevoService({
    brevo,
    commerce: (request) => bigcommerceForHost(requestHost(request)),
    account: accountServices(),
  }),
};
