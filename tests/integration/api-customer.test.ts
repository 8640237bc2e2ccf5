/**
 * Customer and address methods of the shop API over real HTTP against the sandbox (spec §5
 * login and registration, §6 customer rights, §7 customer calls, §8 errors): session cookies,
 * password reset through the sandbox's Brevo outbox.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type {
  CurrentCustomer,
  CustomerAddress,
  FormFieldValue,
} from '../../src/lib/commerce/types.ts';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { BREVO_KEY, startShopApi, type ShopApi } from './helpers/shop-api.ts';

let api: ShopApi;

beforeAll(async () => {
  api = await startShopApi();
});

afterAll(async () => {
  await api.close();
});

const { marie, reseller } = CUSTOMERS;
const INVALID = { status: 401, json: { message: 'Invalid credentials', statusCode: 401 } };
const LOGIN_REQUIRED = { status: 401, json: { message: 'Login required', statusCode: 401 } };

let emails = 0;
const newEmail = () => `client.${Date.now()}.${(emails += 1)}@example.fr`;

const address = {
  firstName: 'Marie',
  lastName: 'Martin',
  address1: '8 rue de la Paix',
  city: 'Paris',
  postalCode: '75002',
  countryCode: 'FR',
  phone: '0612345678',
};

describe('login and logout (spec §5)', () => {
  test('valid credentials: the customer, a signed HttpOnly session and authenticated=1', async () => {
    const shopper = api.shopper();
    const reply = await shopper.call('loginCustomer', [
      { email: ` ${marie.email.toUpperCase()} `, password: marie.password },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.json.data).toMatchObject({
      isValid: true,
      customer: { id: marie.id, email: marie.email, firstName: 'Marie', isReseller: false },
    });
    expect(reply.setCookies).toEqual([
      // OWASP device cookie (throttle.ts): 180 days, for the API only.
      expect.stringMatching(
        /^device=[\w-]+\.[\w-]+; Max-Age=15552000; Path=\/api\/; HttpOnly; SameSite=Lax$/,
      ),
      expect.stringMatching(
        /^session=[\w-]+\.[\w-]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/,
      ),
      'authenticated=1; Max-Age=604800; Path=/; SameSite=Lax',
    ]);
    expect(await shopper.data<CurrentCustomer>('getCustomers', [])).toMatchObject({ id: marie.id });
  });

  test('a new login renews the session value', async () => {
    const shopper = api.shopper();
    await shopper.login(marie.email, marie.password);
    const first = shopper.cookies.get('session');
    await shopper.login(marie.email, marie.password);
    expect(shopper.cookies.get('session')).not.toBe(first);
  });

  test('wrong password: 401 Invalid credentials and the session cleared', async () => {
    const shopper = api.shopper();
    await shopper.login(marie.email, marie.password);
    const reply = await shopper.call('loginCustomer', [
      { email: marie.email, password: 'Mauvais123' },
    ]);
    expect(reply).toMatchObject(INVALID);
    expect(reply.setCookies).toEqual([
      'session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax',
      'authenticated=0; Max-Age=604800; Path=/; SameSite=Lax',
    ]);
    expect(await shopper.data('getCustomers', [])).toBeNull();
  });

  test('unknown e-mail: the same 401', async () => {
    expect(
      await api.shopper().call('loginCustomer', [{ email: 'personne@example.fr', password: 'x1' }]),
    ).toMatchObject(INVALID);
  });

  test('invalid input: 400 with the message key, before any upstream call', async () => {
    api.clearUpstream();
    const reply = await api
      .shopper()
      .call('loginCustomer', [{ email: 'pas-un-email', password: '' }]);
    expect(reply.status).toBe(400);
    expect(reply.json.message).toMatch(
      /^Invalid argument 1 \(credentials\) of bigcommerce\.loginCustomer at email: Invalid email$/,
    );
    expect(api.upstream).toEqual([]);
  });

  test('logout: null, session cleared, authenticated=0', async () => {
    const shopper = api.shopper();
    await shopper.login(marie.email, marie.password);
    const reply = await shopper.call('logoutCustomer', []);
    expect(reply).toMatchObject({ status: 200, json: { data: null } });
    expect(reply.setCookies).toContain('authenticated=0; Max-Age=604800; Path=/; SameSite=Lax');
    expect(shopper.cookies.get('authenticated')).toBe('0');
    expect(await shopper.data('getCustomers', [])).toBeNull();
  });

  test('a forged or tampered session is a visitor; the marker alone is nothing', async () => {
    const shopper = api.shopper();
    await shopper.login(marie.email, marie.password);
    const value = shopper.cookies.get('session') ?? '';
    const [payload = '', signature = ''] = value.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as object;
    const forged = Buffer.from(JSON.stringify({ ...claims, customerId: reseller.id })).toString(
      'base64url',
    );
    shopper.cookies.set('session', `${forged}.${signature}`);
    expect(await shopper.data('getCustomers', [])).toBeNull();
    const marker = api.shopper();
    marker.cookies.set('authenticated', '1');
    expect(await marker.data('getCustomers', [])).toBeNull();
    expect(await marker.call('getCustomerAddress', [])).toMatchObject(LOGIN_REQUIRED);
  });
});

// Throttling of logins, registrations and reset requests: tests/integration/api-throttle.test.ts.

describe('getCustomers', () => {
  test('visitor → null; reseller → flag and shop name from the form fields', async () => {
    expect(await api.shopper().data('getCustomers', [])).toBeNull();
    const paul = api.shopper();
    await paul.login(reseller.email, reseller.password);
    expect(await paul.data<CurrentCustomer>('getCustomers', [])).toMatchObject({
      id: reseller.id,
      isReseller: true,
      shopName: reseller.shopName,
    });
  });

  test('on load, the authenticated marker is set again from the session (spec §4): 1 or 0', async () => {
    const paul = api.shopper();
    await paul.login(reseller.email, reseller.password);
    const on = await paul.call('getCustomers', []);
    expect(on.setCookies).toContain('authenticated=1; Max-Age=604800; Path=/; SameSite=Lax');
    // A browser whose marker still says 1 but whose session has ended (here: a forged cookie).
    const stale = api.shopper();
    stale.cookies.set('authenticated', '1');
    stale.cookies.set('session', 'expired.or.forged');
    const off = await stale.call('getCustomers', []);
    expect(off).toMatchObject({ status: 200, json: { data: null } });
    expect(off.setCookies).toContain('authenticated=0; Max-Age=604800; Path=/; SameSite=Lax');
  });

  test('a session whose customer is gone → 404 Get user data failed', async () => {
    const email = newEmail();
    const shopper = api.shopper();
    const created = await shopper.data<CurrentCustomer>('createCustomer', [
      { email, firstName: 'Jean', lastName: 'Valjean', password: 'Cosette24', createAccount: true },
    ]);
    await api.admin('DELETE', `v3/customers?id:in=${created.id}`);
    expect(await shopper.call('getCustomers', [])).toMatchObject({
      status: 404,
      json: { message: 'Get user data failed', statusCode: 404 },
    });
  });
});

describe('createCustomer (spec §5 registration)', () => {
  test('creates, logs in, and the password works', async () => {
    const email = newEmail();
    const shopper = api.shopper();
    const reply = await shopper.call('createCustomer', [
      {
        email,
        firstName: 'Chloé',
        lastName: 'Bernard',
        password: 'Oreiller7',
        createAccount: true,
        acceptsMarketing: true,
      },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.json.data).toMatchObject({
      email,
      firstName: 'Chloé',
      acceptsMarketing: true,
      savedCartId: null,
    });
    expect(reply.setCookies).toContain('authenticated=1; Max-Age=604800; Path=/; SameSite=Lax');
    expect(await shopper.data<CurrentCustomer>('getCustomers', [])).toMatchObject({ email });
    await api.shopper().login(email, 'Oreiller7');
  });

  test('an e-mail already in use → 409', async () => {
    const reply = await api.shopper().call('createCustomer', [
      {
        email: marie.email.toUpperCase(),
        firstName: 'Autre',
        lastName: 'Marie',
        password: 'Sommeil99',
        createAccount: true,
      },
    ]);
    expect(reply).toMatchObject({
      status: 409,
      json: { message: 'Email already in use', statusCode: 409 },
    });
  });

  test.each([
    [
      'weak password',
      { password: 'abcdefg' },
      'at password: Password must have at least 7 characters including one letter and a number',
    ],
    ['no account checkbox', { createAccount: false }, 'at createAccount: validation.createAccount'],
    ['short first name', { firstName: 'A' }, 'at firstName: validation.nameMin'],
    ['bad e-mail', { email: 'marie@' }, 'at email: Invalid email'],
  ])('%s → 400 with the message key', async (_case, change, message) => {
    const reply = await api.shopper().call('createCustomer', [
      {
        email: newEmail(),
        firstName: 'Léa',
        lastName: 'Petit',
        password: 'Dormir2025',
        createAccount: true,
        ...change,
      },
    ]);
    expect(reply.status).toBe(400);
    expect(reply.json.message).toMatch(
      new RegExp(`${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    );
  });
});

describe('updateCustomer and form fields', () => {
  test('updates the session customer’s profile', async () => {
    const email = newEmail();
    const shopper = api.shopper();
    await shopper.data('createCustomer', [
      { email, firstName: 'Hugo', lastName: 'Moreau', password: 'Matelas12', createAccount: true },
    ]);
    const updated = await shopper.data<CurrentCustomer>('updateCustomer', [
      {
        email,
        firstName: 'Hugues',
        lastName: 'Moreau',
        phone: '0700000000',
        acceptsMarketing: true,
      },
    ]);
    expect(updated).toMatchObject({
      firstName: 'Hugues',
      phone: '0700000000',
      acceptsMarketing: true,
    });
  });

  test('visitor → 401; another account’s e-mail → 409', async () => {
    const profile = { email: newEmail(), firstName: 'Hugo', lastName: 'Moreau' };
    expect(await api.shopper().call('updateCustomer', [profile])).toMatchObject(LOGIN_REQUIRED);
    const shopper = api.shopper();
    await shopper.data('createCustomer', [
      { ...profile, password: 'Matelas12', createAccount: true },
    ]);
    expect(
      await shopper.call('updateCustomer', [{ ...profile, email: marie.email }]),
    ).toMatchObject({
      status: 409,
      json: { message: 'Email already in use' },
    });
  });

  test('form fields: sellers and Cart ID allowed; reseller fields refused', async () => {
    const paul = api.shopper();
    await paul.login(reseller.email, reseller.password);
    const saved = await paul.data<FormFieldValue[]>('updateCustomerFormFields', [
      { data: [{ name: 'Vendeur 1', value: 'Sophie' }] },
    ]);
    expect(saved).toContainEqual({ name: 'Vendeur 1', value: 'Sophie' });
    for (const name of ['Revendeur', 'Nom de la boutique', 'Code tiers comptable', 'Autre']) {
      expect(
        await paul.call('updateCustomerFormFields', [{ data: [{ name, value: 'x' }] }]),
      ).toMatchObject({
        status: 403,
        json: { message: 'Form field not allowed', statusCode: 403 },
      });
    }
    expect(await paul.data<CurrentCustomer>('getCustomers', [])).toMatchObject({
      isReseller: true,
      shopName: reseller.shopName,
    });
    expect(
      await api
        .shopper()
        .call('updateCustomerFormFields', [{ data: [{ name: 'Vendeur 1', value: 'x' }] }]),
    ).toMatchObject(LOGIN_REQUIRED);
  });

  test('Cart ID: a guest cart or her own; not another customer’s cart', async () => {
    const { someVariant } = await import('./helpers/shop-api.ts');
    const line = await someVariant(api, 0);
    const guest = api.shopper();
    const guestCart = await guest.data<{ id: string }>('createCart', [
      { lineItems: [{ ...line, quantity: 1 }] },
    ]);
    const paul = api.shopper();
    await paul.login(reseller.email, reseller.password);
    const paulCart = await paul.data<{ id: string }>('createCart', [
      { lineItems: [{ ...line, quantity: 1 }] },
    ]);

    const marieShopper = api.shopper();
    await marieShopper.login(marie.email, marie.password);
    await marieShopper.data('updateCustomerFormFields', [
      { data: [{ name: 'Cart ID', value: guestCart.id }] },
    ]);
    expect((await marieShopper.data<CurrentCustomer>('getCustomers', [])).savedCartId).toBe(
      guestCart.id,
    );
    expect(
      await marieShopper.call('updateCustomerFormFields', [
        { data: [{ name: 'Cart ID', value: paulCart.id }] },
      ]),
    ).toMatchObject({ status: 404, json: { message: 'Cart not found' } });
  });
});

describe('addresses (spec §6: the customer’s own)', () => {
  test('list, create, update, delete', async () => {
    const shopper = api.shopper();
    await shopper.data('createCustomer', [
      {
        email: newEmail(),
        firstName: 'Inès',
        lastName: 'Roux',
        password: 'Couette88',
        createAccount: true,
      },
    ]);
    expect(await shopper.data('getCustomerAddress', [])).toEqual([]);
    const created = await shopper.data<CustomerAddress>('createCustomerAddress', [address]);
    expect(created).toMatchObject({
      address1: '8 rue de la Paix',
      countryCode: 'FR',
      postalCode: '75002',
    });
    const updated = await shopper.data<CustomerAddress>('updateCustomerAddress', [
      { ...address, id: created.id, city: 'Lyon', postalCode: '69002' },
    ]);
    expect(updated).toMatchObject({ id: created.id, city: 'Lyon' });
    expect(
      (await shopper.data<CustomerAddress[]>('getCustomerAddress', [])).map((a) => a.city),
    ).toEqual(['Lyon']);
    expect(await shopper.data('deleteCustomerAddress', [{ id: [created.id] }])).toBeNull();
    expect(await shopper.data('getCustomerAddress', [])).toEqual([]);
  });

  test('the house/apartment number is kept beside the street, as an address form field', async () => {
    const shopper = api.shopper();
    await shopper.data('createCustomer', [
      {
        email: newEmail(),
        firstName: 'Noé',
        lastName: 'Blanc',
        password: 'Couette88',
        createAccount: true,
      },
    ]);
    const created = await shopper.data<CustomerAddress>('createCustomerAddress', [
      { ...address, houseNumber: '12 bis', address2: 'Bâtiment B' },
    ]);
    expect(created).toMatchObject({
      houseNumber: '12 bis',
      address1: '8 rue de la Paix',
      address2: 'Bâtiment B',
      formFields: [{ name: 'Numéro de rue / appartement', value: '12 bis' }],
    });
    // Stored upstream as BigCommerce does: an address form field, read with include=formfields.
    const stored = await api.admin(
      'GET',
      `v3/customers/form-field-values?address_id=${String(created.id)}`,
    );
    expect((stored.json as { data: unknown[] }).data).toEqual([
      expect.objectContaining({
        name: 'Numéro de rue / appartement',
        value: '12 bis',
        address_id: created.id,
      }),
    ]);
    const changed = await shopper.data<CustomerAddress>('updateCustomerAddress', [
      { ...address, id: created.id, houseNumber: 'Appt 4' },
    ]);
    expect(changed.houseNumber).toBe('Appt 4');
    expect(
      (await shopper.data<CustomerAddress[]>('getCustomerAddress', [])).map((a) => a.houseNumber),
    ).toEqual(['Appt 4']);
    // An update that does not name it leaves it; emptied, it reads empty.
    await shopper.data('updateCustomerAddress', [{ ...address, id: created.id, city: 'Nantes' }]);
    expect(await shopper.data<CustomerAddress[]>('getCustomerAddress', [])).toEqual([
      expect.objectContaining({ houseNumber: 'Appt 4', city: 'Nantes' }),
    ]);
    await shopper.data('updateCustomerAddress', [{ ...address, id: created.id, houseNumber: '' }]);
    expect(await shopper.data<CustomerAddress[]>('getCustomerAddress', [])).toEqual([
      expect.objectContaining({ houseNumber: '', city: 'Paris' }),
    ]);
    const long = await shopper.call('createCustomerAddress', [
      { ...address, houseNumber: 'x'.repeat(41) },
    ]);
    expect(long.status).toBe(400);
    expect(long.json.message).toMatch(/at houseNumber: validation\.addressHint$/);
  });

  test('the 40-character hint and the French postal code are checked', async () => {
    const shopper = api.shopper();
    await shopper.login(marie.email, marie.password);
    const long = await shopper.call('createCustomerAddress', [
      { ...address, address1: 'x'.repeat(41) },
    ]);
    expect(long.status).toBe(400);
    expect(long.json.message).toMatch(/at address1: validation\.addressHint$/);
    const zip = await shopper.call('createCustomerAddress', [{ ...address, postalCode: '7500' }]);
    expect(zip.json.message).toMatch(/at postalCode: validation\.postalCode$/);
  });

  test('another customer’s address: 404 Address not found, untouched; visitor 401', async () => {
    const paul = api.shopper();
    await paul.login(reseller.email, reseller.password);
    const [marieAddress] = marie.addressIds;
    expect(
      await paul.call('updateCustomerAddress', [
        { ...address, id: marieAddress, city: 'Nulle-part' },
      ]),
    ).toMatchObject({
      status: 404,
      json: { message: 'Address not found', statusCode: 404 },
    });
    expect(
      await paul.call('deleteCustomerAddress', [{ id: [marieAddress, ...reseller.addressIds] }]),
    ).toMatchObject({
      status: 404,
      json: { message: 'Address not found' },
    });
    expect((await paul.data<CustomerAddress[]>('getCustomerAddress', [])).map((a) => a.id)).toEqual(
      [...reseller.addressIds],
    );
    const marieShopper = api.shopper();
    await marieShopper.login(marie.email, marie.password);
    const hers = await marieShopper.data<CustomerAddress[]>('getCustomerAddress', []);
    expect(hers.map((a) => a.id)).toEqual([...marie.addressIds]);
    expect(hers.some((a) => a.city === 'Nulle-part')).toBe(false);
    for (const [method, args] of [
      ['getCustomerAddress', []],
      ['createCustomerAddress', [address]],
      ['deleteCustomerAddress', [{ id: [marieAddress] }]],
    ] as const) {
      expect(await api.shopper().call(method, [...args])).toMatchObject(LOGIN_REQUIRED);
    }
  });
});

describe('password reset (spec §7 generateOttAndToken, sendResetPasswordEmail)', () => {
  interface Listed {
    count: number;
    transactionalEmails: { email: string; subject: string; uuid: string }[];
  }

  async function outbox(email: string): Promise<Listed> {
    const response = await fetch(
      `${api.sandbox.url}/brevo/v3/smtp/emails?email=${encodeURIComponent(email)}&sort=desc`,
      { headers: { 'api-key': BREVO_KEY } },
    );
    return (await response.json()) as Listed;
  }

  async function resetLink(email: string): Promise<URL> {
    const listed = await outbox(email);
    const uuid = listed.transactionalEmails[0]?.uuid ?? '';
    const mail = (await (
      await fetch(`${api.sandbox.url}/brevo/v3/smtp/emails/${uuid}`, {
        headers: { 'api-key': BREVO_KEY },
      })
    ).json()) as { body: string; subject: string };
    const href = /href="([^"]+)"/.exec(mail.body)?.[1]?.replaceAll('&amp;', '&');
    return new URL(href ?? '');
  }

  test('end to end: null either way, a French mail with the link, new password, single use', async () => {
    const email = newEmail();
    const shopper = api.shopper();
    await shopper.data('createCustomer', [
      { email, firstName: 'Zoé', lastName: 'Lambert', password: 'Ancien123', createAccount: true },
    ]);
    expect(await api.shopper().call('generateOttAndToken', [{ email }])).toMatchObject({
      status: 200,
      json: { data: null },
    });
    const unknown = newEmail();
    expect(await api.shopper().call('generateOttAndToken', [{ email: unknown }])).toMatchObject({
      status: 200,
      json: { data: null },
    });
    expect((await outbox(unknown)).count).toBe(0);

    const listed = await outbox(email);
    expect(listed.count).toBe(1);
    expect(listed.transactionalEmails[0]?.subject).toBe(
      'Literie : réinitialisation de votre mot de passe',
    );
    const link = await resetLink(email);
    expect(`${link.origin}${link.pathname}`).toBe(`${api.base}/mot-de-passe`);
    const resetToken = link.searchParams.get('resetToken') ?? '';

    const reset = await api
      .shopper()
      .call('sendResetPasswordEmail', [{ password: 'Nouveau456', resetToken }]);
    expect(reset).toMatchObject({ status: 200, json: { data: { email } } });
    await api.shopper().login(email, 'Nouveau456');
    expect(
      await api.shopper().call('loginCustomer', [{ email, password: 'Ancien123' }]),
    ).toMatchObject(INVALID);

    const again = await api
      .shopper()
      .call('sendResetPasswordEmail', [{ password: 'Encore789', resetToken }]);
    expect(again).toMatchObject({
      status: 400,
      json: { message: 'Invalid or expired reset link', statusCode: 400 },
    });
  });

  test('a forged token → 400; a weak password → 400 with the rule', async () => {
    const forged = await api
      .shopper()
      .call('sendResetPasswordEmail', [
        { password: 'Nouveau456', resetToken: 'eyJjdXN0b21lcklkIjoxfQ.AAAA' },
      ]);
    expect(forged).toMatchObject({
      status: 400,
      json: { message: 'Invalid or expired reset link' },
    });
    const weak = await api
      .shopper()
      .call('sendResetPasswordEmail', [{ password: 'court', resetToken: 'x.y' }]);
    expect(weak.json.message).toMatch(
      /at password: Password must have at least 7 characters including one letter and a number$/,
    );
  });
});
