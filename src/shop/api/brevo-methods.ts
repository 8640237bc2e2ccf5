/**
 * The `brevo` service of the API middleware (spec §7 "Newsletter provider"): `subscribe`,
 * `getContactInfo`, `deleteContactInfo`, `addContactToList`, `removeContactFromList`.
 *
 * Who may do what:
 * - anybody may subscribe an address (the footer form), throttled per address and per client
 *   like registrations (429 'Too many attempts');
 * - the other four read or change a known contact: only the logged-in customer, for their own
 *   address (401 'Login required' for a visitor, 403 'Forbidden' for anyone else's), and only
 *   in the shop's newsletter list (spec §9: 31). Nobody learns whether a stranger's address is
 *   subscribed, nor removes it.
 *
 * Brevo's refusals go back with their status (400 when the contact exists or is already in the
 * list, 404 when unknown) for the newsletter island to show the texts of spec §8.
 */
import { z } from 'zod';
import {
  addContactToList,
  deleteContactInfo,
  getContactInfo,
  NEWSLETTER_LIST_ID,
  NewsletterEmailSchema,
  removeContactFromList,
  subscribe,
  type BrevoClient,
} from '../connectors/brevo/index.ts';
import { getCustomerById, type BigCommerceClient } from '../connectors/bigcommerce/index.ts';
import type { AccountThrottle } from '../throttle/throttle.ts';
import type { Session } from '../auth/session.ts';
import { tooManyAttempts, type AccountServices } from './context.ts';
import {
  ApiError,
  bindService,
  defineMethod,
  named,
  type ApiMethod,
  type BoundService,
} from './handle.ts';

export interface NewsletterContext {
  brevo: BrevoClient;
  /** The logged-in customer's e-mail, read from the commerce platform; null for a visitor. */
  customerEmail: () => Promise<string | null>;
  throttle: AccountThrottle | undefined;
  /** The client's address (limits). */
  address: string;
}

/** `subscribe({ email })`. */
const SubscribeInputSchema = z.object({ email: NewsletterEmailSchema }).strict();

/** `addContactToList` / `removeContactFromList({ listId, contactEmails: { emails: [email] } })`. */
const ListInputSchema = z
  .object({
    listId: z.literal(NEWSLETTER_LIST_ID),
    contactEmails: z.object({ emails: z.tuple([NewsletterEmailSchema]) }).strict(),
  })
  .strict();

const loginRequired = () => new ApiError(401, 'LOGIN_REQUIRED', 'Login required');
const forbidden = () => new ApiError(403, 'FORBIDDEN', 'Forbidden');
const notConfigured = () =>
  new ApiError(500, 'NOT_CONFIGURED', 'Customer accounts are not configured');

/** `email` when it is the logged-in customer's own (compared as Brevo does: lower case). */
async function ownEmail(context: NewsletterContext, email: string): Promise<string> {
  const own = await context.customerEmail();
  if (own === null) throw loginRequired();
  if (NewsletterEmailSchema.safeParse(own).data !== email) throw forbidden();
  return email;
}

export const brevoMethods = {
  subscribe: defineMethod(
    z.tuple([named(SubscribeInputSchema, 'contact')]),
    async (context: NewsletterContext, [{ email }]) => {
      if (context.throttle === undefined) throw notConfigured();
      const admission = await context.throttle.newsletter({ email, address: context.address });
      if (!admission.allowed) throw tooManyAttempts(admission.retryAfterMs);
      await subscribe(context.brevo, email, NEWSLETTER_LIST_ID);
      return null;
    },
    { mutates: true },
  ),
  getContactInfo: defineMethod(
    z.tuple([NewsletterEmailSchema.describe('email')]),
    async (context: NewsletterContext, [email]) =>
      getContactInfo(context.brevo, await ownEmail(context, email)),
  ),
  deleteContactInfo: defineMethod(
    z.tuple([NewsletterEmailSchema.describe('email')]),
    async (context: NewsletterContext, [email]) => {
      await deleteContactInfo(context.brevo, await ownEmail(context, email));
      return null;
    },
    { mutates: true },
  ),
  addContactToList: defineMethod(
    z.tuple([named(ListInputSchema, 'list')]),
    async (context: NewsletterContext, [{ listId, contactEmails }]) =>
      addContactToList(context.brevo, listId, [await ownEmail(context, contactEmails.emails[0])]),
    { mutates: true },
  ),
  removeContactFromList: defineMethod(
    z.tuple([named(ListInputSchema, 'list')]),
    async (context: NewsletterContext, [{ listId, contactEmails }]) =>
      removeContactFromList(context.brevo, listId, [
        await ownEmail(context, contactEmails.emails[0]),
      ]),
    { mutates: true },
  ),
} satisfies Record<string, ApiMethod<NewsletterContext>>;

export interface BrevoServiceOptions {
  brevo: () => BrevoClient;
  /** The BigCommerce client of the request's storefront (the customer's e-mail). */
  commerce: (request: Request) => BigCommerceClient;
  /** Sessions and limits; without them only nothing but errors (as the account methods). */
  account: AccountServices | undefined;
}

/** The service, bound to the clients and the session of a request. */
export function brevoService(options: BrevoServiceOptions): BoundService {
  const visitor: Pick<Session, 'customerId'> = { customerId: null };
  return bindService<NewsletterContext>({
    methods: brevoMethods,
    context: async ({ request, clientInfo }) => {
      const session =
        options.account === undefined ? visitor : await options.account.sessions.read(request);
      return {
        brevo: options.brevo(),
        throttle: options.account?.throttle,
        address: clientInfo.address,
        customerEmail: async () => {
          if (session.customerId === null) return null;
          const customer = await getCustomerById(options.commerce(request), session.customerId);
          return customer?.email ?? null;
        },
      };
    },
  });
}
