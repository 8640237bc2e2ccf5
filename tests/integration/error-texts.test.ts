/**
 * No raw keys: with an upstream service down (the sandbox answers 503), what the shop
 * API answers to login, registration, a profile change and a newsletter subscription is a
 * message key every island showing that call's error has a French text for: the login form
 * used to show `error.upstreamUnavailable` as it is. tests/e2e/error-texts.spec.ts shows the
 * same replies in the browser's forms.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { NEWSLETTER_FORM_MESSAGES } from '../../src/browser/newsletter/newsletter-view.ts';
import { AUTH_FORMS_MESSAGES } from '../../src/islands/auth/AuthForms.tsx';
import { PROFILE_FORM_MESSAGES } from '../../src/islands/account/ProfileForm.tsx';
import { pickMessages, type MessageKey } from '../../src/lib/i18n/index.ts';
import { createTranslator, errorText } from '../../src/lib/i18n/translate.ts';
import fr from '../../src/lib/i18n/fr.json' with { type: 'json' };
import { startShopApi, type ShopApi } from './helpers/shop-api.ts';

let shop: ShopApi;

beforeAll(async () => {
  shop = await startShopApi();
});

afterAll(async () => {
  await shop.close();
});

async function faults(method: 'POST' | 'DELETE', body?: unknown): Promise<void> {
  const res = await fetch(`${shop.sandbox.url}/__sandbox/faults`, {
    method,
    headers: { 'X-Auth-Token': shop.sandbox.token, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.ok).toBe(true);
}

afterEach(async () => {
  await faults('DELETE');
});

const customers = () => `/stores/${shop.sandbox.storeHash}/v3/customers`;
const unique = (tag: string) =>
  `${tag}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.fr`;

/** The island's text of the API's error message: French, one of the upstream sentences. */
function shown(keys: readonly string[], message: string | undefined): string {
  const t = createTranslator(pickMessages(keys as readonly MessageKey[]));
  return errorText(t, message);
}

const DOWN = [fr['error.upstreamUnavailable'], fr['error.upstreamTimeout']];

describe('forms with their upstream down answer a key the form shows in French', () => {
  test('login (customer service down)', async () => {
    await faults('POST', { status: 503, match: customers() });
    const reply = await shop
      .shopper()
      .call('loginCustomer', [{ email: unique('login'), password: 'Literie2026' }]);
    expect(reply.status).toBeGreaterThanOrEqual(500);
    expect(reply.json.message).toBe('error.upstreamUnavailable');
    expect(DOWN).toContain(shown(AUTH_FORMS_MESSAGES, reply.json.message));
  });

  test('registration (customer service down)', async () => {
    await faults('POST', { status: 503, match: customers() });
    const reply = await shop.shopper().call('createCustomer', [
      {
        email: unique('register'),
        firstName: 'Camille',
        lastName: 'Durand',
        password: 'Literie2026',
        createAccount: true,
      },
    ]);
    expect(reply.status).toBeGreaterThanOrEqual(500);
    expect(DOWN).toContain(shown(AUTH_FORMS_MESSAGES, reply.json.message));
  });

  test('the account profile (customer service down)', async () => {
    const customer = shop.shopper();
    const email = unique('profile');
    const created = await customer.call('createCustomer', [
      {
        email,
        firstName: 'Camille',
        lastName: 'Durand',
        password: 'Literie2026',
        createAccount: true,
      },
    ]);
    expect(created.status).toBe(200);
    await faults('POST', { status: 503, match: customers() });
    const reply = await customer.call('updateCustomer', [
      { email, firstName: 'Camille', lastName: 'Martin', phone: '' },
    ]);
    expect(reply.status).toBeGreaterThanOrEqual(500);
    expect(DOWN).toContain(shown(PROFILE_FORM_MESSAGES, reply.json.message));
  });

  test('the newsletter (Brevo down)', async () => {
    await faults('POST', { status: 503, match: '/brevo' });
    const reply = await shop.shopper().call('brevo.subscribe', [{ email: unique('newsletter') }]);
    expect(reply.status).toBeGreaterThanOrEqual(500);
    expect(DOWN).toContain(shown(NEWSLETTER_FORM_MESSAGES, reply.json.message));
  });
});
