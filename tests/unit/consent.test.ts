import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  allowsContainer,
  allowsPersonalData,
  CONSENT_COOKIE,
  CONSENT_MAX_AGE_MS,
  CONSENT_REVISION,
  consentedEvent,
  consentModeState,
  parseStoredConsent,
  PERSONAL_FIELDS,
  storedConsentValue,
  type ConsentChoice,
} from '../../src/lib/analytics/consent.ts';
import {
  shippingInfoEvent,
  viewItemEvent,
  withCustomer,
  userDataEvent,
  type DataLayerEvent,
} from '../../src/lib/analytics/datalayer.ts';
import { pushConsentCommand } from '../../src/lib/analytics/tag-manager.ts';
import { customer, memoryCookieJar, stubShopApi } from './helpers/shop-api.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const NOW = Date.parse('2026-11-28T10:00:00.000Z');
const DAY = 86_400_000;

/** The value vanilla-cookieconsent v3.1 writes (its `ke` cookie writer), as the browser has it. */
function libraryValue(overrides: Record<string, unknown> = {}, at = NOW): string {
  return JSON.stringify({
    categories: ['necessary', 'analytics'],
    revision: CONSENT_REVISION,
    data: null,
    consentTimestamp: new Date(at).toISOString(),
    consentId: '3f1c2a9e-8d4b-4c1e-9f7a-2b6d5e4c3a21',
    services: { necessary: [], analytics: [], ads: [] },
    languageCode: 'fr',
    lastConsentTimestamp: new Date(at).toISOString(),
    expirationTime: at + 182 * DAY,
    ...overrides,
  });
}

describe('the kept choice (cookie choix-cookies): read back, else ask again', () => {
  test('the banner library’s value: its categories are the choice', () => {
    expect(parseStoredConsent(libraryValue(), NOW)).toEqual({
      analytics: true,
      ads: false,
      decidedAt: NOW,
    });
    expect(
      parseStoredConsent(libraryValue({ categories: ['necessary', 'ads', 'analytics'] }), NOW),
    ).toEqual({ analytics: true, ads: true, decidedAt: NOW });
    expect(parseStoredConsent(libraryValue({ categories: ['necessary'] }), NOW)).toEqual({
      analytics: false,
      ads: false,
      decidedAt: NOW,
    });
  });

  test('what the browser tests preset reads back as that choice', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), (analytics, ads) => {
        const stored = storedConsentValue({ analytics, ads }, NOW);
        expect(parseStoredConsent(stored, NOW + DAY)).toEqual({ analytics, ads, decidedAt: NOW });
      }),
    );
  });

  test('kept six months, then asked again', () => {
    const stored = storedConsentValue({ analytics: true, ads: true }, NOW);
    expect(parseStoredConsent(stored, NOW + 181 * DAY)).not.toBeNull();
    expect(parseStoredConsent(stored, NOW + CONSENT_MAX_AGE_MS)).toBeNull();
    expect(parseStoredConsent(stored, NOW + 400 * DAY)).toBeNull();
    // An expiry pushed far away does not keep an old choice alive.
    const old = libraryValue({ expirationTime: NOW + 3_000 * DAY }, NOW - 200 * DAY);
    expect(parseStoredConsent(old, NOW)).toBeNull();
    // Nor does a recent date with an expiry already past.
    expect(parseStoredConsent(libraryValue({ expirationTime: NOW - 1 }), NOW)).toBeNull();
  });

  test.each([
    ['absent', undefined],
    ['empty', ''],
    ['not JSON', '{categories:'],
    ['an array', '["necessary","analytics"]'],
    ['null', 'null'],
    ['another revision (the question changed)', libraryValue({ revision: CONSENT_REVISION + 1 })],
    ['no revision (an older banner)', libraryValue({ revision: undefined })],
    ['without the necessary purpose', libraryValue({ categories: ['analytics'] })],
    ['categories not a list', libraryValue({ categories: 'analytics' })],
    ['a category that is no text', libraryValue({ categories: ['necessary', { a: 1 }] })],
    ['no date', libraryValue({ consentTimestamp: undefined, lastConsentTimestamp: undefined })],
    ['a date that is no date', libraryValue({ lastConsentTimestamp: 'hier', consentTimestamp: 1 })],
    ['dated in the future', libraryValue({}, NOW + 3 * DAY)],
    ['no expiry', libraryValue({ expirationTime: undefined })],
    ['an expiry that is text', libraryValue({ expirationTime: '9999999999999' })],
    ['too long to be ours', libraryValue({ data: 'x'.repeat(5_000) })],
  ])('asked again: %s', (_case, raw) => {
    expect(parseStoredConsent(raw, NOW)).toBeNull();
  });

  test('any text at all: never throws, and grants only what a well-formed value says', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (raw) => {
          const choice = parseStoredConsent(raw, NOW);
          if (choice === null) return;
          const value = JSON.parse(raw) as { categories: string[] };
          expect(value.categories).toContain('necessary');
          expect(choice.analytics).toBe(value.categories.includes('analytics'));
          expect(choice.ads).toBe(value.categories.includes('ads'));
        },
      ),
    );
  });

  test('a well-formed value with generated categories and dates', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('necessary', 'analytics', 'ads', 'other'), { maxLength: 6 }),
        fc.integer({ min: -400, max: 10 }),
        (categories, days) => {
          const at = NOW + days * DAY;
          const choice = parseStoredConsent(libraryValue({ categories }, at), NOW);
          const valid = categories.includes('necessary') && days <= 1 && days > -182;
          expect(choice !== null).toBe(valid);
          if (choice) {
            expect(choice.analytics).toBe(categories.includes('analytics'));
            expect(choice.ads).toBe(categories.includes('ads'));
          }
        },
      ),
    );
  });
});

describe('Google Consent Mode v2 states', () => {
  test('the default: all four denied', () => {
    expect(consentModeState(null)).toEqual({
      ad_storage: 'denied',
      ad_user_data: 'denied',
      ad_personalization: 'denied',
      analytics_storage: 'denied',
    });
    expect(allowsContainer(null)).toBe(false);
    expect(allowsPersonalData(null)).toBe(false);
  });

  test('each purpose grants its own states only', () => {
    const analytics = { analytics: true, ads: false, decidedAt: NOW };
    expect(consentModeState(analytics)).toEqual({
      ad_storage: 'denied',
      ad_user_data: 'denied',
      ad_personalization: 'denied',
      analytics_storage: 'granted',
    });
    const ads = { analytics: false, ads: true, decidedAt: NOW };
    expect(consentModeState(ads)).toEqual({
      ad_storage: 'granted',
      ad_user_data: 'granted',
      ad_personalization: 'granted',
      analytics_storage: 'denied',
    });
    expect(allowsContainer(ads)).toBe(true);
    expect(allowsPersonalData(ads)).toBe(false);
    expect(allowsContainer({ analytics: false, ads: false, decidedAt: NOW })).toBe(false);
  });

  test('a gtag command is a real Arguments object, as Tag Manager reads them', () => {
    const host: { dataLayer?: unknown[] } = {};
    pushConsentCommand(host, 'default', consentModeState(null));
    const [entry] = host.dataLayer ?? [];
    expect(Object.prototype.toString.call(entry)).toBe('[object Arguments]');
    expect(Array.from(entry as ArrayLike<unknown>)).toEqual([
      'consent',
      'default',
      consentModeState(null),
    ]);
  });
});

const arbitraryCustomer = fc.record({
  id: fc.integer({ min: 1, max: 1e9 }),
  email: fc.emailAddress().map((email) => `perso.${email}`),
  firstName: fc.string({ minLength: 3 }).map((name) => `Prénom-${name}`),
  lastName: fc.string({ minLength: 3 }).map((name) => `Nom-${name}`),
});

const arbitraryEvent: fc.Arbitrary<DataLayerEvent> = fc.oneof(
  fc
    .record({ id: fc.integer({ min: 1 }), name: fc.string(), price: fc.integer({ min: 0 }) })
    .map(({ id, name, price }) =>
      viewItemEvent({ item_id: String(id), item_name: name, price: price / 100, quantity: 1 }),
    ),
  fc
    .record({ id: fc.integer({ min: 1 }), city: fc.string(), zip: fc.string() })
    .map((order) =>
      shippingInfoEvent(
        { id: order.id, subtotalIncTax: 1_000, shippingCostIncTax: 0 },
        [],
        [{ city: order.city, zip: order.zip, countryIso2: 'FR', shippingMethod: 'Colissimo' }],
      ),
    ),
  fc.constant({ event: 'podcast_play', podcast_id: 'e1', podcast_title: 'Respirer' } as const),
);

const denied = fc.constantFrom<ConsentChoice | null>(
  null,
  { analytics: false, ads: false, decidedAt: NOW },
  { analytics: false, ads: true, decidedAt: NOW },
);

describe('the gate: no personal data without analytics consent', () => {
  test('no personal field, and none of the customer’s data, passes without it', () => {
    fc.assert(
      fc.property(arbitraryCustomer, arbitraryEvent, denied, (shopper, event, choice) => {
        const gated = consentedEvent(withCustomer(event, shopper), choice);
        expect(gated).not.toBeNull();
        for (const field of PERSONAL_FIELDS) expect(gated).not.toHaveProperty(field);
        const text = JSON.stringify(gated);
        expect(text).not.toContain(shopper.email);
        expect(text).not.toContain(shopper.firstName);
        expect(text).not.toContain(shopper.lastName);
        expect(consentedEvent(userDataEvent(shopper), choice)).toBeNull();
      }),
    );
  });

  test('with analytics consent the event goes as built', () => {
    fc.assert(
      fc.property(arbitraryCustomer, arbitraryEvent, fc.boolean(), (shopper, event, ads) => {
        const full = withCustomer(event, shopper);
        expect(consentedEvent(full, { analytics: true, ads, decidedAt: NOW })).toEqual(full);
      }),
    );
  });
});

interface Pushed {
  event?: string;
  customer_email?: string;
}
const isCommand = (entry: unknown): entry is IArguments =>
  Object.prototype.toString.call(entry) === '[object Arguments]';

/** One page load: fresh stores, the given cookies, a recorded data layer. */
async function page(cookies: Record<string, string>) {
  vi.resetModules();
  const jarModule = await import('../../src/lib/stores/cookie-jar.ts');
  jarModule.setCookieJar(memoryCookieJar(cookies));
  const win: { dataLayer?: unknown[] } = {};
  vi.stubGlobal('window', win);
  const consent = await import('../../src/lib/stores/consent.ts');
  const analytics = await import('../../src/lib/stores/analytics.ts');
  /** The data layer as `consent:default:…`, `event:email` lines (no `{ ecommerce: null }`). */
  const layer = () =>
    (win.dataLayer ?? []).flatMap((entry) => {
      if (isCommand(entry)) {
        const [, command, state] = Array.from(entry) as [string, string, Record<string, string>];
        return [`consent:${command}:${state.analytics_storage}/${state.ad_storage}`];
      }
      const pushed = entry as Pushed;
      return pushed.event === undefined ? [] : [`${pushed.event}:${pushed.customer_email ?? '-'}`];
    });
  return { consent, analytics, layer };
}

const marie = customer({
  id: 1,
  email: 'marie@example.fr',
  firstName: 'Marie',
  lastName: 'Dupont',
});
const item = { item_id: '12', item_name: 'Matelas', price: 869, quantity: 1 };
const kept = (analytics: boolean, ads: boolean) => ({
  [CONSENT_COOKIE]: storedConsentValue({ analytics, ads }, Date.now()),
});

describe('the page: Consent Mode first, personal data only after consent', () => {
  test('no choice kept: the default (all denied) leads, then events without personal data', async () => {
    const { consent, analytics, layer } = await page({ authenticated: '1' });
    stubShopApi({ getCustomers: () => marie });
    analytics.trackViewItem(item);
    await analytics.userDataReady();
    expect(layer()).toEqual(['consent:default:denied/denied', 'view_item:-']);
    expect(consent.$consent.get()).toBeNull();
  });

  test('a kept refusal: default then its update, still no personal data', async () => {
    const { analytics, layer } = await page({ authenticated: '1', ...kept(false, true) });
    stubShopApi({ getCustomers: () => marie });
    analytics.trackViewItem(item);
    await analytics.userDataReady();
    expect(layer()).toEqual([
      'consent:default:denied/denied',
      'consent:update:denied/granted',
      'view_item:-',
    ]);
  });

  test('a kept consent: default, update, then user_data before the events, with the fields', async () => {
    const { analytics, layer } = await page({ authenticated: '1', ...kept(true, false) });
    stubShopApi({ getCustomers: () => marie });
    analytics.trackViewItem(item);
    await analytics.userDataReady();
    expect(layer()).toEqual([
      'consent:default:denied/denied',
      'consent:update:granted/denied',
      'user_data:marie@example.fr',
      'view_item:marie@example.fr',
    ]);
  });

  test('consent given on the page: the update at once, then user_data, then events with fields', async () => {
    const { consent, analytics, layer } = await page({ authenticated: '1' });
    stubShopApi({ getCustomers: () => marie });
    analytics.trackViewItem(item);
    await analytics.userDataReady();
    consent.chooseConsent({ analytics: true, ads: true, decidedAt: Date.now() });
    analytics.trackAddToCart(item);
    analytics.trackUserData();
    expect(layer()).toEqual([
      'consent:default:denied/denied',
      'view_item:-',
      'consent:update:granted/granted',
      'user_data:marie@example.fr',
      'add_to_cart:marie@example.fr',
    ]);
  });

  test('a visitor: user_data is settled at once (nothing to wait for)', async () => {
    const { analytics, layer } = await page(kept(true, true));
    const calls = stubShopApi({});
    await analytics.userDataReady();
    expect(analytics.$userDataSettled.get()).toBe(true);
    expect(layer()).toEqual(['consent:default:denied/denied', 'consent:update:granted/granted']);
    expect(calls).toEqual([]);
  });
});
