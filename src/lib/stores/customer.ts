/**
 * The logged-in shopper (spec §3 current customer, §4 authentication, §5 login rules), shared by
 * the login modal, the account pages and the header. Identity lives in the server's session
 * cookie; `$isAuthenticated` mirrors the `authenticated` marker cookie, a UI hint only.
 * Initial values (nobody logged in, no errors) are right on the server too; `initCustomer()`
 * reads the marker cookie and loads the customer in the browser.
 */
import { atom, map } from 'nanostores';
import { api } from '../api/bigcommerce.ts';
import { ApiCallError, errorMessage, logCallFailure } from '../api/client.ts';
import { AUTHENTICATED_COOKIE_NAME, isAuthenticatedMarker } from '../commerce/account.ts';
import type { CurrentCustomer } from '../commerce/types.ts';
import type {
  LoginInput,
  PasswordResetInput,
  ProfileInput,
  RegistrationInput,
} from '../commerce/validation.ts';
import { mergeCartOnLogin, resetCartOnLogout, type ActionError } from './cart.ts';
import { cookieJar } from './cookie-jar.ts';

export type CustomerAction = 'load' | 'login' | 'register' | 'update' | 'logout' | 'reset';

export const $customer = atom<CurrentCustomer | null>(null);
export const $isAuthenticated = atom(false);
/**
 * Whether this page knows who the shopper is: true at once for a visitor (no `authenticated`
 * marker), else once `getCustomers` answered or failed. The analytics pushes of spec §9 wait
 * for it, so a logged-in shopper's events carry their fields. False on the server.
 */
export const $customerSettled = atom(false);
/** spec §8: one error slot per action; login and register errors show above the submit button. */
export const $customerErrors = map<Record<CustomerAction, ActionError | null>>({
  load: null,
  login: null,
  register: null,
  update: null,
  logout: null,
  reset: null,
});
/** True while a customer action runs (the forms disable their submit button). */
export const $customerLoading = atom(false);

/**
 * spec §5: the login error when the API says the credentials are not valid (a throttled
 * attempt answers 429 'Too many attempts', shown as it comes).
 */
const INVALID_CREDENTIALS = 'Invalid credentials';
/** spec §5: after login, customer data must be returned. */
const USER_DATA_FAILED = 'Get user data failed';

function toActionError(error: unknown): ActionError {
  if (error instanceof ApiCallError) {
    // The details carry a throttle's wait or attempts left (login-throttle.ts words them).
    return {
      message: error.message,
      statusCode: error.statusCode,
      code: error.code,
      ...(error.details === undefined ? {} : { details: error.details }),
    };
  }
  return { message: errorMessage(error), statusCode: 500, code: 'unknown' };
}

function fail(action: CustomerAction, error: unknown): false {
  logCallFailure(`customer ${action} failed:`, error);
  $customerErrors.setKey(action, toActionError(error));
  return false;
}

let running = 0;
async function track<T>(task: () => Promise<T>): Promise<T> {
  running += 1;
  $customerLoading.set(true);
  try {
    return await task();
  } finally {
    running -= 1;
    if (running === 0) $customerLoading.set(false);
  }
}

function signIn(customer: CurrentCustomer): void {
  $customer.set(customer);
  $isAuthenticated.set(true);
  $customerSettled.set(true);
}

function signOut(): void {
  $customer.set(null);
  $isAuthenticated.set(false);
  $customerSettled.set(true);
}

/** spec §4: the `authenticated` marker cookie, read as the UI's first guess. */
export function readAuthenticatedCookie(): boolean {
  return isAuthenticatedMarker(cookieJar().get(AUTHENTICATED_COOKIE_NAME));
}

/** Loads the session's customer (null for a visitor). */
export function loadCustomer(): Promise<boolean> {
  return track(async () => {
    $customerErrors.setKey('load', null);
    try {
      const customer = await api.getCustomers();
      if (customer) signIn(customer);
      else signOut();
      return true;
    } catch (error) {
      signOut();
      return fail('load', error);
    }
  });
}

let started: Promise<boolean> | null = null;

/**
 * Once per page: the marker cookie's hint at once, then the customer when it says logged in
 * (a visitor costs no request).
 */
export function initCustomer(): Promise<boolean> {
  if (started) return started;
  const hinted = readAuthenticatedCookie();
  $isAuthenticated.set(hinted);
  // A visitor is known at once; loadCustomer signs in or out (a failure: out), which settles.
  if (!hinted) $customerSettled.set(true);
  started = hinted ? loadCustomer() : Promise.resolve(true);
  return started;
}

/**
 * spec §5 login: valid only when the API says so, else 'Invalid credentials' and the shopper is
 * logged out; the customer data must come back, else 'Get user data failed'. Then the cart
 * login merge (spec §4). Resolves true when logged in.
 */
export function login(input: LoginInput): Promise<boolean> {
  return track(async () => {
    $customerErrors.setKey('login', null);
    let customer: CurrentCustomer;
    try {
      const reply = await api.loginCustomer(input);
      if (!reply.isValid) throw new ApiCallError(INVALID_CREDENTIALS, 401, 'api');
      if (!reply.customer) throw new ApiCallError(USER_DATA_FAILED, 404, 'api');
      customer = reply.customer;
    } catch (error) {
      signOut();
      return fail('login', error);
    }
    signIn(customer);
    await mergeCartOnLogin(customer);
    return true;
  });
}

/** Registration (spec §5): creates the account, which logs in, then the cart login merge. */
export function register(input: RegistrationInput): Promise<boolean> {
  return track(async () => {
    $customerErrors.setKey('register', null);
    let customer: CurrentCustomer;
    try {
      const data = await api.createCustomer(input);
      if (!data) throw new ApiCallError(USER_DATA_FAILED, 404, 'api');
      customer = data;
    } catch (error) {
      return fail('register', error);
    }
    signIn(customer);
    await mergeCartOnLogin(customer);
    return true;
  });
}

/**
 * Logs out: the session is cleared by the API, then the shopper gets a new guest cart. When
 * the API call fails the shopper stays logged in (their session is still valid).
 */
export function logout(): Promise<boolean> {
  return track(async () => {
    $customerErrors.setKey('logout', null);
    try {
      await api.logoutCustomer();
    } catch (error) {
      return fail('logout', error);
    }
    signOut();
    await resetCartOnLogout();
    return true;
  });
}

/** The profile form (spec §5: an empty reply is 'Update client failed'). */
export function updateProfile(input: ProfileInput): Promise<boolean> {
  return track(async () => {
    $customerErrors.setKey('update', null);
    try {
      const customer = await api.updateCustomer(input);
      if (!customer) throw new ApiCallError('Update client failed', 500, 'api');
      $customer.set(customer);
      return true;
    } catch (error) {
      return fail('update', error);
    }
  });
}

/** "Forgot password": asks for the reset e-mail (the API never says whether the account exists). */
export function requestPasswordReset(email: string): Promise<boolean> {
  return track(async () => {
    $customerErrors.setKey('reset', null);
    try {
      await api.generateOttAndToken({ email });
      return true;
    } catch (error) {
      return fail('reset', error);
    }
  });
}

/** Sets the new password of a reset link, then logs in with it (login errors in `login`). */
export async function resetPassword(input: PasswordResetInput): Promise<boolean> {
  const email = await track(async () => {
    $customerErrors.setKey('reset', null);
    try {
      return (await api.sendResetPasswordEmail(input)).email;
    } catch (error) {
      fail('reset', error);
      return null;
    }
  });
  if (email === null) return false;
  return login({ email, password: input.password });
}

/** Empties the error slots of `actions` (default: all), e.g. when the login modal opens. */
export function clearCustomerErrors(
  actions: readonly CustomerAction[] = ['load', 'login', 'register', 'update', 'logout', 'reset'],
): void {
  for (const action of actions) $customerErrors.setKey(action, null);
}
