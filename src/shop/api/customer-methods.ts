/**
 * Customer and address methods of the `bigcommerce` service (spec §7 "Commerce: customer",
 * §5 validation, §8 errors). The customer is always the session's: no method takes a
 * customer id from the request.
 */
import { z } from 'zod';
import type { CurrentCustomer, FormFieldValue } from '../../lib/commerce/types.ts';
import {
  AddressInputSchema,
  AddressUpdateInputSchema,
  LoginInputSchema,
  PasswordResetInputSchema,
  PasswordResetRequestSchema,
  ProfileInputSchema,
  RegistrationInputSchema,
} from '../../lib/commerce/validation.ts';
import {
  createCustomer,
  createCustomerAddress,
  deleteCustomerAddresses,
  getCustomerAddresses,
  getCustomerByEmail,
  getCustomerById,
  isBigCommerceError,
  updateCustomer,
  updateCustomerAddress,
  updateCustomerFormFields,
  validateCustomerCredentials,
  type BigCommerceClient,
} from '../connectors/bigcommerce/index.ts';
import { CartIdSchema } from '../connectors/bigcommerce/queries.ts';
import { readCookie } from '../auth/cookies.ts';
import { logFailure } from '../faults/failures.ts';
import { usableCart } from '../carts/ownership.ts';
import { passwordResetEmail } from '../mail/password-reset-email.ts';
import { LOGIN_WARNING_ATTEMPTS } from '../../lib/commerce/login-throttle.ts';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE, DEVICE_COOKIE_PATH } from '../throttle/throttle.ts';
// Throttled (throttle.ts): the wait is the same whether the e-mail has an account or not.
import { accountOf, requireCustomer, tooManyAttempts, type ShopContext } from './context.ts';
import {
  currentCustomer as toCurrentCustomer,
  FORM_FIELDS,
  SHOPPER_FORM_FIELDS,
} from './customer-view.ts';
import { ApiError, defineMethod, named, type ApiMethod } from './handle.ts';

/**
 * spec §5 'Invalid credentials'; from `LOGIN_WARNING_ATTEMPTS` attempts left before the
 * throttle's waits, `details.attemptsLeft` says how many (the form warns). The
 * count is the throttle's, the same whether the account exists or not.
 */
const invalidCredentials = (attemptsLeft: number) =>
  new ApiError(
    401,
    'INVALID_CREDENTIALS',
    'Invalid credentials',
    {},
    attemptsLeft <= LOGIN_WARNING_ATTEMPTS ? { attemptsLeft } : undefined,
  );
const userDataFailed = () => new ApiError(404, 'USER_DATA_FAILED', 'Get user data failed');
const emailInUse = () => new ApiError(409, 'EMAIL_IN_USE', 'Email already in use');
const updateClientFailed = () => new ApiError(502, 'UPDATE_CLIENT_FAILED', 'Update client failed');
const updateFormFailed = () => new ApiError(502, 'UPDATE_FORM_FAILED', 'Update form failed');
const addressNotFound = () => new ApiError(404, 'ADDRESS_NOT_FOUND', 'Address not found');
const cartNotFound = () => new ApiError(404, 'CART_NOT_FOUND', 'Cart not found');
const invalidResetLink = () =>
  new ApiError(400, 'INVALID_RESET_TOKEN', 'Invalid or expired reset link');

/** The session's customer as the browser sees it; 404 'Get user data failed' when gone. */
async function currentCustomer(client: BigCommerceClient, customerId: number) {
  const customer = await getCustomerById(client, customerId);
  if (customer === null) throw userDataFailed();
  return toCurrentCustomer(customer);
}

// Upstream answers 409 (or 422 naming the e-mail) when another account took it meanwhile.
function asEmailConflict(error: unknown): unknown {
  if (!isBigCommerceError(error)) return error;
  const aboutEmail = /e-?mail/i.test(`${error.title ?? ''} ${JSON.stringify(error.errors ?? {})}`);
  return error.status === 409 || (error.status === 422 && aboutEmail) ? emailInUse() : error;
}

export const customerMethods = {
  /**
   * spec §5 login: valid credentials on the storefront's channel → a new session, and a new
   * device cookie (OWASP) so that this browser's next attempts count against it alone.
   * Throttled: 429 'Too many attempts' with `Retry-After`.
   */
  loginCustomer: defineMethod(
    z.tuple([named(LoginInputSchema, 'credentials')]),
    async (
      context: ShopContext,
      [credentials],
    ): Promise<{ isValid: true; customer: CurrentCustomer }> => {
      const account = accountOf(context);
      const { throttle, sessions } = account;
      const attempt = await throttle.login({
        email: credentials.email,
        address: context.clientInfo.address,
        deviceCookie: readCookie(context.request, DEVICE_COOKIE),
      });
      if (!attempt.allowed) {
        await sessions.end(context.cookies, context.request);
        throw tooManyAttempts(attempt.retryAfterMs);
      }
      const customerId = await validateCustomerCredentials(context.client, credentials);
      if (customerId === null) {
        await attempt.failed();
        await sessions.end(context.cookies, context.request);
        throw invalidCredentials(attempt.attemptsLeft);
      }
      context.cookies.set(DEVICE_COOKIE, await attempt.succeeded(), {
        path: DEVICE_COOKIE_PATH,
        httpOnly: true,
        maxAge: DEVICE_COOKIE_MAX_AGE,
      });
      const customer = await getCustomerById(context.client, customerId);
      if (customer === null) {
        await sessions.end(context.cookies, context.request);
        throw userDataFailed();
      }
      await sessions.start(context.cookies, context.request, customerId);
      const current = toCurrentCustomer(customer);
      sessions.markMode(context.cookies, context.request, current.isReseller);
      return { isValid: true, customer: current };
    },
    { mutates: true },
  ),

  /** Ends the session server-side: its cookie, replayed, reads a visitor. */
  logoutCustomer: defineMethod(
    z.tuple([]),
    async (context: ShopContext) => {
      await accountOf(context).sessions.end(context.cookies, context.request);
      return null;
    },
    { mutates: true },
  ),

  /**
   * spec §7 getCustomers: the session's customer, null for a visitor. The shell calls it on
   * load: the `authenticated` marker is set again from the session (spec §4), 1 or 0.
   */
  getCustomers: defineMethod(z.tuple([]), async (context: ShopContext) => {
    const { customerId } = context.session;
    const sessions = context.account?.sessions;
    sessions?.mark(context.cookies, customerId !== null);
    if (customerId === null) {
      sessions?.markMode(context.cookies, context.request, false);
      return null;
    }
    const current = await currentCustomer(context.client, customerId);
    sessions?.markMode(context.cookies, context.request, current.isReseller);
    return current;
  }),

  /**
   * spec §5 registration; the new customer is logged in. Throttled per address and per e-mail
   * (429 'Too many attempts' with `Retry-After`), before the e-mail is even looked up.
   */
  createCustomer: defineMethod(
    z.tuple([named(RegistrationInputSchema, 'customer')]),
    async (context: ShopContext, [input]) => {
      const { sessions, throttle } = accountOf(context);
      const admission = await throttle.registration({
        email: input.email,
        address: context.clientInfo.address,
      });
      if (!admission.allowed) throw tooManyAttempts(admission.retryAfterMs);
      if ((await getCustomerByEmail(context.client, input.email)) !== null) throw emailInUse();
      const created = await createCustomer(context.client, {
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        password: input.password,
        acceptsMarketing: input.acceptsMarketing ?? false,
      }).catch((error: unknown) => {
        throw asEmailConflict(error);
      });
      if (created === null) throw updateClientFailed();
      await sessions.start(context.cookies, context.request, created.id);
      return currentCustomer(context.client, created.id);
    },
    { mutates: true },
  ),

  /** spec §5: the update must return a customer, else 'Update client failed'. */
  updateCustomer: defineMethod(
    z.tuple([named(ProfileInputSchema, 'profile')]),
    async (context: ShopContext, [input]) => {
      const customerId = requireCustomer(context);
      const owner = await getCustomerByEmail(context.client, input.email);
      if (owner !== null && owner.id !== customerId) throw emailInUse();
      const updated = await updateCustomer(context.client, customerId, {
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        ...(input.phone === undefined ? {} : { phone: input.phone }),
        ...(input.company === undefined ? {} : { company: input.company }),
        ...(input.acceptsMarketing === undefined
          ? {}
          : { acceptsMarketing: input.acceptsMarketing }),
      }).catch((error: unknown) => {
        throw asEmailConflict(error);
      });
      if (updated === null) throw updateClientFailed();
      return currentCustomer(context.client, customerId);
    },
    { mutates: true },
  ),

  /** spec §5: the update must return values, else 'Update form failed'. */
  updateCustomerFormFields: defineMethod(
    z.tuple([
      z
        .strictObject({
          data: z
            .array(
              z.strictObject({
                name: z.string().trim().min(1).max(255),
                value: z.union([z.string().trim().max(255), z.array(z.string().max(255)).max(20)]),
              }),
            )
            .min(1)
            .max(10),
        })
        .describe('fields'),
    ]),
    async (context: ShopContext, [{ data }]): Promise<FormFieldValue[]> => {
      const customerId = requireCustomer(context);
      for (const field of data) {
        if (!SHOPPER_FORM_FIELDS.has(field.name)) {
          throw new ApiError(403, 'FORM_FIELD_FORBIDDEN', 'Form field not allowed');
        }
        if (field.name === FORM_FIELDS.cartId) {
          await checkSavedCart(context.client, customerId, field.value);
        }
      }
      const saved = await updateCustomerFormFields(context.client, customerId, data);
      if (saved.length === 0) throw updateFormFailed();
      return saved;
    },
    { mutates: true },
  ),

  /**
   * spec §7 generateOttAndToken: mails a reset link when the account exists. Always null, so
   * the reply never says whether an e-mail has an account; limited per account and per
   * address (over the limit, silently no e-mail).
   */
  generateOttAndToken: defineMethod(
    z.tuple([named(PasswordResetRequestSchema, 'request')]),
    async (context: ShopContext, [{ email }]) => {
      const account = accountOf(context);
      const allowed = await account.throttle.resetRequest({
        email,
        address: context.clientInfo.address,
      });
      if (!allowed) return null;
      const customer = await getCustomerByEmail(context.client, email);
      if (customer === null) return null;
      const token = account.resetTokens.create(customer);
      const link = new URL('/mot-de-passe', account.linkOrigin(context.request));
      link.searchParams.set('resetToken', token);
      try {
        await account.sendMail(
          passwordResetEmail({ customer, link: link.href, sender: account.mailSender }),
        );
      } catch (error) {
        // Answering an error would tell that the account exists: log it only.
        logFailure('api', 'password reset e-mail failed', error);
      }
      return null;
    },
    { mutates: true },
  ),

  /**
   * Sets the password of the reset link's account: once, within the hour, even when the link
   * is used twice at the same moment (claimed in the shared store first); every session of
   * the customer issued before ends, on every server copy.
   */
  sendResetPasswordEmail: defineMethod(
    z.tuple([named(PasswordResetInputSchema, 'reset')]),
    async (context: ShopContext, [{ password, resetToken }]) => {
      const { resetTokens, sessions } = accountOf(context);
      const claims = resetTokens.verify(resetToken);
      if (claims === null) throw invalidResetLink();
      const customer = await getCustomerById(context.client, claims.customerId);
      if (
        customer === null ||
        resetTokens.fingerprint(customer.dateModified) !== claims.fingerprint
      ) {
        throw invalidResetLink();
      }
      if (!(await resetTokens.claim(claims))) throw invalidResetLink();
      const updated = await updateCustomer(context.client, customer.id, { password }).catch(
        async (error: unknown) => {
          await resetTokens.release(claims);
          throw error;
        },
      );
      if (updated === null) {
        await resetTokens.release(claims);
        throw updateClientFailed();
      }
      // The shopper's client logs in with the new password next (spec §7): a new session.
      await sessions.endAll(customer.id);
      return { email: updated.email };
    },
    { mutates: true },
  ),

  // -- addresses (spec §6: the customer's own) ------------------------------------------------

  getCustomerAddress: defineMethod(z.tuple([]), (context: ShopContext) =>
    getCustomerAddresses(context.client, requireCustomer(context)),
  ),

  createCustomerAddress: defineMethod(
    z.tuple([named(AddressInputSchema, 'address')]),
    async (context: ShopContext, [input]) => {
      const created = await createCustomerAddress(context.client, requireCustomer(context), input);
      if (created === null) throw new ApiError(502, 'ADDRESS_FAILED', 'Create address failed');
      return created;
    },
    { mutates: true },
  ),

  updateCustomerAddress: defineMethod(
    z.tuple([named(AddressUpdateInputSchema, 'address')]),
    async (context: ShopContext, [{ id, ...input }]) => {
      const customerId = requireCustomer(context);
      const [own] = await getCustomerAddresses(context.client, customerId, [id]);
      if (own?.id !== id) throw addressNotFound();
      const updated = await updateCustomerAddress(context.client, customerId, id, input);
      if (updated === null) throw new ApiError(502, 'ADDRESS_FAILED', 'Update address failed');
      return updated;
    },
    { mutates: true },
  ),

  /** spec §7 deleteCustomerAddress `{ id:in: [id] }`: every id must be the customer's. */
  deleteCustomerAddress: defineMethod(
    z.tuple([
      z
        .strictObject({ id: z.array(z.number().int().positive()).min(1).max(50) })
        .describe('addresses'),
    ]),
    async (context: ShopContext, [{ id: ids }]) => {
      const customerId = requireCustomer(context);
      const wanted = [...new Set(ids)];
      const own = await getCustomerAddresses(context.client, customerId, wanted);
      const owned = new Set(own.map((a) => a.id));
      if (!wanted.every((id) => owned.has(id))) throw addressNotFound();
      await deleteCustomerAddresses(context.client, wanted);
      return null;
    },
    { mutates: true },
  ),
} satisfies Record<string, ApiMethod<ShopContext>>;

/** 'Cart ID' may name no cart (''), the customer's own cart, or a guest cart. */
async function checkSavedCart(
  client: BigCommerceClient,
  customerId: number,
  value: string | readonly string[],
): Promise<void> {
  if (value === '') return;
  if (typeof value !== 'string' || !CartIdSchema.safeParse(value).success) throw cartNotFound();
  if ((await usableCart(client, value, customerId)) === null) throw cartNotFound();
}
