/**
 * Customers v3 of the sandbox over HTTP: create (scrypt-hashed passwords), duplicates,
 * validate-credentials, list filters and includes, update, delete, form field values and
 * addresses, each reply against the contract.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMERS } from '../src/fixtures.ts';
import { expectContract } from './helpers.ts';
import { sandboxApi, startTestSandbox, type TestSandbox } from '../src/testing.ts';

interface Customer {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  company: string;
  address_count: number;
  authentication: { force_password_reset: boolean };
  accepts_product_review_abandoned_cart_emails: boolean;
  form_fields?: { name: string; value: unknown; customer_id: number }[];
  addresses?: { id: number; country: string; form_fields?: unknown[] }[];
}

interface Address {
  id: number;
  customer_id: number;
  first_name: string;
  address1: string;
  city: string;
  country: string;
  country_code: string;
  address_type: string;
}

interface List<T> {
  data: T[];
  meta: { pagination?: { total: number } };
}

interface V3Error {
  status: number;
  title: string;
  errors?: Record<string, string>;
}

let sandbox: TestSandbox;
let api: ReturnType<typeof sandboxApi>;
let counter = 0;

function email(): string {
  counter++;
  return `client${counter}.${Date.now()}@example.fr`;
}

async function validate(
  address: string,
  password: string,
): Promise<{ customer_id: number | null; is_valid: boolean }> {
  const reply = await api<{ customer_id: number | null; is_valid: boolean }>(
    'POST',
    '/v3/customers/validate-credentials',
    { email: address, password, channel_id: 1 },
  );
  expect(reply.status).toBe(200);
  expectContract('POST /v3/customers/validate-credentials', reply.body);
  return reply.body;
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  api = sandboxApi(sandbox);
});

afterAll(async () => {
  await sandbox.close();
});

describe('seed customers', () => {
  test('Marie Martin and the reseller log in with their passwords; wrong ones do not', async () => {
    expect(await validate(CUSTOMERS.marie.email, CUSTOMERS.marie.password)).toEqual({
      customer_id: 1,
      is_valid: true,
    });
    expect(
      await validate(CUSTOMERS.reseller.email.toUpperCase(), CUSTOMERS.reseller.password),
    ).toEqual({
      customer_id: 2,
      is_valid: true,
    });
    expect(await validate(CUSTOMERS.marie.email, 'Sommeil2025')).toEqual({
      customer_id: null,
      is_valid: false,
    });
    expect(await validate('personne@example.fr', 'Sommeil2024')).toEqual({
      customer_id: null,
      is_valid: false,
    });
  });

  test('validate-credentials without a password: 422', async () => {
    const reply = await api<V3Error>('POST', '/v3/customers/validate-credentials', {
      email: CUSTOMERS.marie.email,
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ password: 'password is required' });
    expectContract('POST /v3/customers/validate-credentials', reply.body, 'error');
  });

  test('include=formfields,addresses: the reseller fields, two addresses for Marie', async () => {
    const reply = await api<List<Customer>>(
      'GET',
      '/v3/customers?id:in=1,2&include=formfields,addresses',
    );
    expect(reply.status).toBe(200);
    expectContract('GET /v3/customers', reply.body);
    const [marie, reseller] = reply.body.data;
    expect(marie).toMatchObject({
      email: CUSTOMERS.marie.email,
      first_name: 'Marie',
      address_count: 2,
      form_fields: [],
    });
    expect(marie?.addresses?.map((a) => [a.id, a.country])).toEqual([
      [1, 'France'],
      [2, 'France'],
    ]);
    expect(marie?.addresses?.[0]?.form_fields).toEqual([]);
    expect(reseller?.form_fields).toEqual([
      { name: 'Revendeur', value: 'oui', customer_id: 2 },
      { name: 'Nom de la boutique', value: 'Literie du Centre', customer_id: 2 },
      { name: 'Vendeur 1', value: 'Sophie Bernard', customer_id: 2 },
      { name: 'Code tiers comptable', value: 'C0042', customer_id: 2 },
    ]);
    const plain = await api<List<Customer>>(
      'GET',
      `/v3/customers?email:in=${CUSTOMERS.marie.email}`,
    );
    expect(plain.body.data.map((c) => c.id)).toEqual([1]);
    expect(plain.body.data[0]).not.toHaveProperty('form_fields');
    expect(plain.body.data[0]).not.toHaveProperty('addresses');
    expect(JSON.stringify(plain.body)).not.toMatch(/"(new_)?password"|scrypt/);
    const none = await api<List<Customer>>('GET', '/v3/customers?email:in=personne@example.fr');
    expect([none.status, none.body.data]).toEqual([200, []]);
  });

  test.each([
    ['id:in=1,x', 'id:in'],
    ['include=orders', 'include'],
    ['sort=email:asc', 'sort'],
  ])('bad filter %s: 422', async (query, param) => {
    const reply = await api<V3Error>('GET', `/v3/customers?${query}`);
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors ?? {})).toEqual([param]);
  });
});

describe('create, update, delete', () => {
  test('POST: array in, array out; the password is stored as scrypt at OWASP parameters', async () => {
    const address = email();
    const reply = await api<List<Customer>>('POST', '/v3/customers', [
      {
        email: address,
        first_name: 'Jeanne',
        last_name: 'Petit',
        accepts_product_review_abandoned_cart_emails: true,
        authentication: { force_password_reset: false, new_password: 'Matelas123' },
        addresses: [
          {
            first_name: 'Jeanne',
            last_name: 'Petit',
            address1: '3 rue Neuve',
            city: 'Nantes',
            state_or_province: '',
            postal_code: '44000',
            country_code: 'FR',
          },
        ],
      },
    ]);
    expect(reply.status).toBe(200);
    expectContract('POST /v3/customers', reply.body);
    const [created] = reply.body.data;
    expect(created).toMatchObject({
      email: address,
      first_name: 'Jeanne',
      address_count: 1,
      accepts_product_review_abandoned_cart_emails: true,
      authentication: { force_password_reset: false },
    });
    expect(await validate(address, 'Matelas123')).toEqual({
      customer_id: created?.id,
      is_valid: true,
    });
    const db = new DatabaseSync(join(sandbox.dataDir, 'sandbox.db'), { readOnly: true });
    try {
      const row = db
        .prepare('SELECT password FROM customers WHERE id = ?')
        .get(created?.id ?? 0) as { password: string };
      const [scheme, n, r, p, salt, hash] = row.password.split('$');
      expect([scheme, n, r, p]).toEqual(['scrypt', '131072', '8', '1']);
      expect(Buffer.from(salt ?? '', 'base64')).toHaveLength(16);
      expect(Buffer.from(hash ?? '', 'base64')).toHaveLength(32);
    } finally {
      db.close();
    }
  });

  test('a taken e-mail (any case): 422 "The email address ... is already in use."', async () => {
    const reply = await api<V3Error>('POST', '/v3/customers', [
      { email: 'Marie.Martin@example.fr', first_name: 'Marie', last_name: 'Bis' },
    ]);
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({
      title: 'The email address Marie.Martin@example.fr is already in use.',
      errors: { '0.email': 'The email address Marie.Martin@example.fr is already in use.' },
    });
    expectContract('POST /v3/customers', reply.body, 'error');
  });

  test.each([
    [{ first_name: 'A', last_name: 'B' }, { '0.email': 'email is required' }],
    [
      { email: 'pas-un-email', first_name: 'A', last_name: 'B' },
      { '0.email': 'email must be a valid email address' },
    ],
    [
      { email: 'x@example.fr', first_name: '', last_name: 'B' },
      { '0.first_name': 'first_name is required' },
    ],
    [
      {
        email: 'x@example.fr',
        first_name: 'A',
        last_name: 'B',
        authentication: { new_password: 'abcdefgh' },
      },
      {
        '0.authentication.new_password':
          'Passwords must be at least 7 characters and contain both alphabetic and numeric characters.',
      },
    ],
    [
      { email: 'x@example.fr', first_name: 'A', last_name: 'B', addresses: [{ first_name: 'A' }] },
      {
        '0.addresses.0.last_name': 'last_name is required',
        '0.addresses.0.address1': 'address1 is required',
        '0.addresses.0.city': 'city is required',
        '0.addresses.0.state_or_province': 'state_or_province is required',
        '0.addresses.0.postal_code': 'postal_code is required',
        '0.addresses.0.country_code': 'country_code is required',
      },
    ],
  ])('invalid customer %j: 422 with %j', async (customer, errors) => {
    const reply = await api<V3Error>('POST', '/v3/customers', [customer]);
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual(errors);
  });

  test('not an array: 422', async () => {
    expect((await api('POST', '/v3/customers', { email: 'x@example.fr' })).status).toBe(422);
    expect((await api('POST', '/v3/customers', [])).status).toBe(422);
  });

  test('PUT: fields and password change; unknown id and taken e-mail 422; DELETE id:in', async () => {
    const address = email();
    const created = await api<List<Customer>>('POST', '/v3/customers', [
      {
        email: address,
        first_name: 'Luc',
        last_name: 'Moreau',
        authentication: { new_password: 'Premier1' },
      },
    ]);
    const id = created.body.data[0]?.id ?? 0;
    const updated = await api<List<Customer>>('PUT', '/v3/customers', [
      {
        id,
        first_name: 'Lucas',
        company: 'Moreau SARL',
        authentication: { new_password: 'Second22' },
      },
    ]);
    expect(updated.status).toBe(200);
    expectContract('PUT /v3/customers', updated.body);
    expect(updated.body.data[0]).toMatchObject({
      id,
      first_name: 'Lucas',
      last_name: 'Moreau',
      company: 'Moreau SARL',
    });
    expect((await validate(address, 'Premier1')).is_valid).toBe(false);
    expect((await validate(address, 'Second22')).is_valid).toBe(true);
    const unknown = await api<V3Error>('PUT', '/v3/customers', [{ id: 99999, first_name: 'X' }]);
    expect([unknown.status, unknown.body.errors]).toEqual([
      422,
      { '0.id': 'Customer 99999 not found' },
    ]);
    const taken = await api<V3Error>('PUT', '/v3/customers', [
      { id, email: CUSTOMERS.marie.email },
    ]);
    expect([taken.status, taken.body.title]).toEqual([
      422,
      `The email address ${CUSTOMERS.marie.email} is already in use.`,
    ]);
    const noId = await api<V3Error>('PUT', '/v3/customers', [{ first_name: 'X' }]);
    expect(noId.body.errors).toEqual({ '0.id': 'id is required' });
    expect((await api('DELETE', '/v3/customers')).status).toBe(204);
    expect((await api('DELETE', `/v3/customers?id:in=${id}`)).status).toBe(204);
    expect((await api<List<Customer>>('GET', `/v3/customers?id:in=${id}`)).body.data).toEqual([]);
    expect((await validate(address, 'Second22')).is_valid).toBe(false);
  });
});

describe('form field values', () => {
  test('PUT upserts (Cart ID, then again); GET by customer_id and field_name', async () => {
    const put = await api<List<unknown>>('PUT', '/v3/customers/form-field-values', [
      {
        name: 'Cart ID',
        value: '11111111-1111-1111-1111-111111111111',
        customer_id: CUSTOMERS.marie.id,
      },
    ]);
    expect(put.status).toBe(200);
    expectContract('PUT /v3/customers/form-field-values', put.body);
    await api('PUT', '/v3/customers/form-field-values', [
      {
        name: 'Cart ID',
        value: '22222222-2222-2222-2222-222222222222',
        customer_id: CUSTOMERS.marie.id,
      },
    ]);
    const got = await api<List<unknown>>(
      'GET',
      `/v3/customers/form-field-values?customer_id=${CUSTOMERS.marie.id}`,
    );
    expect(got.status).toBe(200);
    expectContract('GET /v3/customers/form-field-values', got.body);
    expect(got.body.data).toEqual([
      { name: 'Cart ID', value: '22222222-2222-2222-2222-222222222222', customer_id: 1 },
    ]);
    const byName = await api<List<unknown>>(
      'GET',
      '/v3/customers/form-field-values?field_name=Revendeur',
    );
    expect(byName.body.data).toEqual([
      { name: 'Revendeur', value: 'oui', customer_id: CUSTOMERS.reseller.id },
      { name: 'Revendeur', value: 'oui', customer_id: CUSTOMERS.resellerWithSellers.id },
      { name: 'Revendeur', value: 'non', customer_id: CUSTOMERS.formerReseller.id },
    ]);
    const many = await api<List<unknown>>(
      'GET',
      '/v3/customers/form-field-values?customer_id:in=1,2',
    );
    expect(many.body.data).toHaveLength(5);
  });

  test.each([
    [
      [{ name: 'Couleur', value: 'bleu', customer_id: 1 }],
      { '0.name': 'The form field "Couleur" does not exist' },
    ],
    [
      [{ name: 'Cart ID', value: 'x' }],
      { '0': 'exactly one of customer_id and address_id is required' },
    ],
    [
      [{ name: 'Cart ID', value: 'x', customer_id: 999 }],
      { '0.customer_id': 'Customer 999 not found' },
    ],
    [
      [{ name: 'Cart ID', value: { a: 1 }, customer_id: 1 }],
      { '0.value': 'value must be a string, a number or an array of strings' },
    ],
    // The address form's field is no customer field, and the customer's fields no address's.
    [
      [{ name: 'Numéro de rue / appartement', value: '12', customer_id: 1 }],
      { '0.name': 'The form field "Numéro de rue / appartement" does not exist' },
    ],
    [
      [{ name: 'Cart ID', value: 'x', address_id: 1 }],
      { '0.name': 'The form field "Cart ID" does not exist' },
    ],
  ])('invalid %j: 422', async (body, errors) => {
    const reply = await api<V3Error>('PUT', '/v3/customers/form-field-values', body);
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual(errors);
    expectContract('PUT /v3/customers/form-field-values', reply.body, 'error');
  });
});

describe('addresses', () => {
  test('POST, GET by customer_id:in / id:in, PUT, DELETE id:in', async () => {
    const customerId = CUSTOMERS.reseller.id;
    const created = await api<List<Address>>('POST', '/v3/customers/addresses', [
      {
        customer_id: customerId,
        first_name: 'Paul',
        last_name: 'Durand',
        address1: '1 quai de la Loire',
        city: 'Orléans',
        state_or_province: '',
        postal_code: '45000',
        country_code: 'fr',
        phone: '0238000000',
        address_type: 'commercial',
      },
    ]);
    expect(created.status).toBe(200);
    expectContract('POST /v3/customers/addresses', created.body);
    const address = created.body.data[0];
    expect(address).toMatchObject({
      customer_id: customerId,
      country: 'France',
      country_code: 'FR',
      address_type: 'commercial',
    });
    const id = address?.id ?? 0;
    const list = await api<List<Address>>(
      'GET',
      `/v3/customers/addresses?customer_id:in=${customerId}&include=formfields`,
    );
    expect(list.status).toBe(200);
    expectContract('GET /v3/customers/addresses', list.body);
    expect(list.body.data.map((a) => a.id)).toEqual([3, id]);
    const updated = await api<List<Address>>('PUT', '/v3/customers/addresses', [
      { id, customer_id: customerId, city: 'Tours', postal_code: '37000' },
    ]);
    expect(updated.status).toBe(200);
    expectContract('PUT /v3/customers/addresses', updated.body);
    expect(updated.body.data[0]).toMatchObject({
      id,
      city: 'Tours',
      address1: '1 quai de la Loire',
    });
    const foreign = await api<V3Error>('PUT', '/v3/customers/addresses', [
      { id, customer_id: 1, city: 'Lyon' },
    ]);
    expect([foreign.status, foreign.body.errors]).toEqual([
      422,
      { '0.customer_id': `Address ${id} does not belong to customer 1` },
    ]);
    expect((await api('DELETE', `/v3/customers/addresses?id:in=${id}`)).status).toBe(204);
    const after = await api<List<Address>>('GET', `/v3/customers/addresses?id:in=${id}`);
    expect(after.body.data).toEqual([]);
    expect((await api('DELETE', '/v3/customers/addresses')).status).toBe(422);
  });

  test.each([
    [
      {
        first_name: 'A',
        last_name: 'B',
        address1: 'x',
        city: 'y',
        state_or_province: '',
        postal_code: '1',
        country_code: 'FR',
      },
      { '0.customer_id': 'customer_id is required' },
    ],
    [
      {
        customer_id: 1,
        first_name: 'A',
        last_name: 'B',
        address1: 'x',
        city: 'y',
        state_or_province: '',
        postal_code: '1',
        country_code: 'ZZ',
      },
      { '0.country_code': 'country_code ZZ is not a known country' },
    ],
    [
      {
        customer_id: 999,
        first_name: 'A',
        last_name: 'B',
        address1: 'x',
        city: 'y',
        state_or_province: '',
        postal_code: '1',
        country_code: 'FR',
      },
      { '0.customer_id': 'Customer 999 not found' },
    ],
  ])('invalid address %j: 422', async (body, errors) => {
    const reply = await api<V3Error>('POST', '/v3/customers/addresses', [body]);
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual(errors);
    expectContract('POST /v3/customers/addresses', reply.body, 'error');
  });
});
