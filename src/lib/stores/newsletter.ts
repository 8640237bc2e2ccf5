/**
 * The newsletter (spec §4 "Newsletter: submit, then either an error message or the success
 * text", §7 newsletter provider, §8 error catalogue, §9 list 31), shared by the footer form and
 * the newsletter panel.
 *
 * - A visitor, or a customer typing another address, subscribes the address (`subscribe`).
 * - A logged-in customer already known to Brevo (the spec's `brevoUser` flag of the current
 *   customer) typing their own address is added to the list instead (`addContactToList`).
 *   Whether they are known is looked up once, when first needed (`lookupBrevoUser`), rather than
 *   on every page load; that optional lookup swallows its errors (spec §8).
 * - Each action keeps its own error slot and logs its failure (spec §8); the form shows the
 *   error of its last submit above its button.
 */
import { atom, map, type MapStore } from 'nanostores';
import { brevoApi, NEWSLETTER_LIST_ID } from '../api/brevo.ts';
import { ApiCallError, errorMessage, logCallFailure } from '../api/client.ts';
import { $customer } from './customer.ts';

export type NewsletterAction = 'subscribe' | 'addToList';

/** spec §8: a 400 on subscribe means the contact exists. */
export const SUBSCRIBE_EXISTS = 'newsletter.error.exists';
/** spec §8: a 400 on add-to-list means already in the list, or unknown. */
export const ADD_EXISTS_OR_MISSING = 'newsletter.error.existsOrMissing';
/** spec §4: the success text. */
export const NEWSLETTER_SUCCESS = 'newsletter.success';

/** One slot per action (spec §8): a message key of `fr.json`, or a text as it came. */
export const $newsletterErrors = map<Record<NewsletterAction, string | null>>({
  subscribe: null,
  addToList: null,
});

/**
 * The message an action's failure shows (spec §8): the two 400s have their own texts; a delete
 * shows the message read from the reply's text (the API's `message`); others as they come.
 */
export function newsletterErrorMessage(action: NewsletterAction, error: unknown): string {
  if (error instanceof ApiCallError) {
    if (error.statusCode === 400 && action === 'subscribe') return SUBSCRIBE_EXISTS;
    if (error.statusCode === 400 && action === 'addToList') return ADD_EXISTS_OR_MISSING;
    return error.message;
  }
  return errorMessage(error);
}

/** spec §3: the current customer is known to Brevo; null while not looked up (or a visitor). */
export const $brevoUser = atom<{ email: string; known: boolean } | null>(null);

let lookup: { email: string; done: Promise<boolean> } | null = null;

/**
 * Whether the logged-in customer (of e-mail `email`) is a Brevo contact: looked up once per
 * page and address; any failure (unknown contact included) reads as not known.
 */
export function lookupBrevoUser(email: string): Promise<boolean> {
  if (lookup?.email === email) return lookup.done;
  const done = brevoApi.getContactInfo(email).then(
    () => true,
    () => false,
  );
  lookup = { email, done };
  void done.then((known) => {
    if (lookup?.email === email) $brevoUser.set({ email, known });
  });
  return done;
}

/** The logged-in customer's own address (lower case, as Brevo compares), else null. */
function ownAddress(email: string): string | null {
  const customer = $customer.get();
  if (customer === null) return null;
  const own = customer.email.trim().toLowerCase();
  return own === email.trim().toLowerCase() ? own : null;
}

async function run(action: NewsletterAction, task: () => Promise<unknown>): Promise<boolean> {
  $newsletterErrors.setKey(action, null);
  try {
    await task();
    return true;
  } catch (error) {
    logCallFailure(`newsletter ${action} failed:`, error);
    $newsletterErrors.setKey(action, newsletterErrorMessage(action, error));
    return false;
  }
}

const listInput = (email: string) => ({
  listId: NEWSLETTER_LIST_ID,
  contactEmails: { emails: [email] as [string] },
});

/** Adds the logged-in customer's own address to the newsletter list. */
export const addToNewsletterList = (email: string) =>
  run('addToList', () => brevoApi.addContactToList(listInput(email)));

/** What a newsletter form shows (spec §4). */
export interface NewsletterFormState {
  pending: boolean;
  /** True after a successful submit (the success text replaces the error). */
  done: boolean;
  /** The error of the last submit, a message key or a text. */
  error: string | null;
}

export const IDLE_NEWSLETTER_FORM: NewsletterFormState = {
  pending: false,
  done: false,
  error: null,
};

/**
 * The state of one form (footer or panel: each shows its own outcome) and its submit. The
 * address is already valid (spec §5 rules checked by the form).
 */
export function createNewsletterForm(): {
  $state: MapStore<NewsletterFormState>;
  submit: (email: string) => Promise<boolean>;
} {
  const $state = map<NewsletterFormState>({ ...IDLE_NEWSLETTER_FORM });
  const submit = async (email: string): Promise<boolean> => {
    if ($state.get().pending) return false;
    $state.set({ pending: true, done: false, error: null });
    const own = ownAddress(email);
    const known = own !== null && (await lookupBrevoUser(own));
    const action: NewsletterAction = known ? 'addToList' : 'subscribe';
    const ok = known
      ? await addToNewsletterList(own)
      : await run('subscribe', () => brevoApi.subscribe({ email }));
    $state.set({ pending: false, done: ok, error: ok ? null : $newsletterErrors.get()[action] });
    return ok;
  };
  return { $state, submit };
}
