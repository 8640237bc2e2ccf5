import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  ApiReplyError,
  customer,
  methods,
  NetworkFailure,
  record,
  stubShopApi,
} from './helpers/shop-api.ts';

type NewsletterStore = typeof import('../../src/lib/stores/newsletter.ts');
type CustomerStore = typeof import('../../src/lib/stores/customer.ts');
let store: NewsletterStore;
let customers: CustomerStore;

beforeEach(async () => {
  vi.resetModules();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  store = await import('../../src/lib/stores/newsletter.ts');
  customers = await import('../../src/lib/stores/customer.ts');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const exists = () => {
  throw new ApiReplyError('Unable to create contact, email is already associated', 400);
};

describe('a visitor subscribes (spec §4, §7)', () => {
  test('subscribe {email}: pending, then the success text, no error', async () => {
    const calls = stubShopApi({ subscribe: () => null });
    const form = store.createNewsletterForm();
    const states = record(form.$state);
    expect(await form.submit('anne@example.fr')).toBe(true);
    expect(calls).toEqual([{ method: 'subscribe', args: [{ email: 'anne@example.fr' }] }]);
    expect(states).toEqual([
      { pending: true, done: false, error: null },
      { pending: false, done: true, error: null },
    ]);
    expect(store.$newsletterErrors.get().subscribe).toBeNull();
  });

  test("a 400 is 'Le contact existe déjà dans la liste.' (spec §8), kept in the subscribe slot", async () => {
    stubShopApi({ subscribe: exists });
    const form = store.createNewsletterForm();
    const states = record(form.$state);
    expect(await form.submit('anne@example.fr')).toBe(false);
    expect(states.at(-1)).toEqual({ pending: false, done: false, error: store.SUBSCRIBE_EXISTS });
    expect(store.SUBSCRIBE_EXISTS).toBe('newsletter.error.exists');
    expect(store.$newsletterErrors.get().subscribe).toBe(store.SUBSCRIBE_EXISTS);
  });

  test('other errors are shown as they come (throttled, upstream down, network)', async () => {
    for (const [handler, expected] of [
      [
        () => {
          throw new ApiReplyError('Too many attempts', 429);
        },
        'Too many attempts',
      ],
      [
        () => {
          throw new ApiReplyError('error.upstreamUnavailable', 503);
        },
        'error.upstreamUnavailable',
      ],
      [
        () => {
          throw new NetworkFailure();
        },
        // No reply (fetch rejects) says the shopper is offline.
        'offline.action',
      ],
    ] as const) {
      stubShopApi({ subscribe: handler });
      const form = store.createNewsletterForm();
      await form.submit('anne@example.fr');
      expect(form.$state.get().error).toBe(expected);
    }
  });

  test('a second submit while one runs is ignored; each form keeps its own state', async () => {
    let release: () => void = () => undefined;
    const calls = stubShopApi({
      subscribe: () =>
        new Promise<null>((resolve) => {
          release = () => {
            resolve(null);
          };
        }),
    });
    const footer = store.createNewsletterForm();
    const panel = store.createNewsletterForm();
    const first = footer.submit('anne@example.fr');
    await vi.waitFor(() => {
      expect(calls).toHaveLength(1);
    });
    expect(await footer.submit('anne@example.fr')).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(footer.$state.get().done).toBe(true);
    expect(panel.$state.get()).toEqual(store.IDLE_NEWSLETTER_FORM);
  });
});

describe('a logged-in customer (spec §3 brevoUser, §7)', () => {
  test('known to Brevo, own address: added to list 31 instead of subscribed', async () => {
    customers.$customer.set(customer({ email: 'Marie.Martin@example.fr' }));
    const calls = stubShopApi({
      getContactInfo: () => ({ listIds: [2] }),
      addContactToList: () => ({ contacts: { success: ['marie.martin@example.fr'], failure: [] } }),
    });
    const form = store.createNewsletterForm();
    expect(await form.submit('marie.martin@example.fr')).toBe(true);
    expect(calls).toEqual([
      { method: 'getContactInfo', args: ['marie.martin@example.fr'] },
      {
        method: 'addContactToList',
        args: [{ listId: 31, contactEmails: { emails: ['marie.martin@example.fr'] } }],
      },
    ]);
    expect(store.$brevoUser.get()).toEqual({ email: 'marie.martin@example.fr', known: true });
  });

  test("a 400 on add is 'Le contact existe déjà dans la liste et/ou n'existe pas.'", async () => {
    customers.$customer.set(customer({ email: 'marie.martin@example.fr' }));
    stubShopApi({
      getContactInfo: () => ({ listIds: [31] }),
      addContactToList: () => {
        throw new ApiReplyError('Contact already in list', 400);
      },
    });
    const form = store.createNewsletterForm();
    expect(await form.submit('marie.martin@example.fr')).toBe(false);
    expect(form.$state.get().error).toBe('newsletter.error.existsOrMissing');
    expect(store.$newsletterErrors.get()).toEqual({
      subscribe: null,
      addToList: 'newsletter.error.existsOrMissing',
    });
  });

  test('the contact lookup swallows its errors: unknown or failing means subscribe', async () => {
    customers.$customer.set(customer({ email: 'marie.martin@example.fr' }));
    const calls = stubShopApi({
      getContactInfo: () => {
        throw new ApiReplyError('Contact does not exist', 404);
      },
      subscribe: () => null,
    });
    const form = store.createNewsletterForm();
    expect(await form.submit('marie.martin@example.fr')).toBe(true);
    // Looked up once per address and page.
    await form.submit('marie.martin@example.fr');
    expect(methods(calls)).toEqual(['getContactInfo', 'subscribe', 'subscribe']);
    expect(store.$brevoUser.get()).toEqual({ email: 'marie.martin@example.fr', known: false });
  });

  test('another address than their own is subscribed, without a lookup', async () => {
    customers.$customer.set(customer({ email: 'marie.martin@example.fr' }));
    const calls = stubShopApi({ subscribe: () => null });
    await store.createNewsletterForm().submit('autre@example.fr');
    expect(methods(calls)).toEqual(['subscribe']);
  });
});

describe('newsletter error messages (spec §8)', () => {
  test('newsletterErrorMessage maps only the 400s of subscribe and add', async () => {
    const { ApiCallError } = await import('../../src/lib/api/client.ts');
    const bad = new ApiCallError('Brevo says no', 400, 'api');
    expect(store.newsletterErrorMessage('subscribe', bad)).toBe('newsletter.error.exists');
    expect(store.newsletterErrorMessage('addToList', bad)).toBe('newsletter.error.existsOrMissing');
    const down = new ApiCallError('Brevo says no', 503, 'api');
    expect(store.newsletterErrorMessage('subscribe', down)).toBe('Brevo says no');
    expect(store.newsletterErrorMessage('addToList', down)).toBe('Brevo says no');
    expect(store.newsletterErrorMessage('subscribe', new Error('boom'))).toBe('error.generic');
  });
});

describe('the form view (spec §4, §5, §8)', () => {
  test('validation, error above the button, success text, pending label', async () => {
    const { newsletterFormView } = await import('../../src/browser/newsletter/newsletter-view.ts');
    const { NewsletterInputSchema, validateForm } =
      await import('../../src/lib/commerce/validation.ts');
    const t = (key: string) => `«${key}»`;
    const idle = store.IDLE_NEWSLETTER_FORM;
    const empty = validateForm(NewsletterInputSchema, { email: ' ', consent: false });
    expect(newsletterFormView(idle, empty.errors, t)).toEqual({
      emailError: '«validation.required»',
      consentError: '«validation.newsletterConsent»',
      formError: '',
      info: '',
      status: '',
      button: '«newsletter.submit»',
      pending: false,
    });
    const badEmail = validateForm(NewsletterInputSchema, { email: 'anne@', consent: true });
    expect(newsletterFormView(idle, badEmail.errors, t).emailError).toBe('«Invalid email»');
    const ok = validateForm(NewsletterInputSchema, { email: ' Anne@Example.fr ', consent: true });
    expect(ok.data).toEqual({ email: 'Anne@Example.fr', consent: true });
    expect(newsletterFormView({ pending: true, done: false, error: null }, {}, t)).toMatchObject({
      button: '«common.loading»',
      pending: true,
    });
    // An address already on the list is news, not a fault (no red alert).
    expect(
      newsletterFormView({ pending: false, done: false, error: 'newsletter.error.exists' }, {}, t),
    ).toMatchObject({ formError: '', info: '«newsletter.error.exists»', status: '' });
    expect(
      newsletterFormView(
        { pending: false, done: false, error: 'newsletter.error.existsOrMissing' },
        {},
        t,
      ),
    ).toMatchObject({ formError: '', info: '«newsletter.error.existsOrMissing»' });
    // A real failure stays the error above the button.
    expect(
      newsletterFormView({ pending: false, done: false, error: 'Too many attempts' }, {}, t),
    ).toMatchObject({ formError: '«Too many attempts»', info: '' });
    expect(newsletterFormView({ pending: false, done: true, error: null }, {}, t)).toMatchObject({
      formError: '',
      status: '«newsletter.success»',
    });
  });
});
