/**
 * Carts v3, cart metafields and checkouts of the sandbox over HTTP: replies against the
 * contract, upstream's rules (no empty cart, merge of repeated lines, variants and options,
 * stock, purchasing disabled), totals, the last-item deletion, and racing writes.
 *
 * This file: refused requests, cart metafields, checkout, racing writes and checkbox modifiers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PRODUCTS } from '../src/fixtures.ts';
import { expectContract } from './helpers.ts';
import { sandboxApi, startTestSandbox, type TestSandbox } from '../src/testing.ts';
import { createCartWith, ELYSEE, type Cart, type Data, type V3Error } from './helpers.ts';

let sandbox: TestSandbox;
let api: ReturnType<typeof sandboxApi>;

const createCart = (lines: object[], query = '') => createCartWith(api, lines, query);

beforeAll(async () => {
  sandbox = await startTestSandbox();
  api = sandboxApi(sandbox);
});

afterAll(async () => {
  await sandbox.close();
});

describe('requests the router refuses', () => {
  test('bad JSON 400, unsupported method 405, missing token 401, wrong include 422', async () => {
    const bad = await api<V3Error>('POST', '/v3/carts', undefined, { rawBody: '{"line_items": [' });
    expect([bad.status, bad.body.title]).toEqual([400, 'The request body is not valid JSON.']);
    const array = await api<V3Error>('POST', '/v3/carts', [1]);
    expect(array.status).toBe(422);
    const patch = await api<V3Error>('PATCH', '/v3/carts');
    expect(patch.status).toBe(405);
    const getList = await api<V3Error>('GET', '/v3/carts');
    expect(getList.status).toBe(405);
    const noToken = await api<V3Error>('POST', '/v3/carts', { line_items: [] }, { token: null });
    expect(noToken.status).toBe(401);
    const cart = await createCart([{ product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 1 }]);
    const include = await api<V3Error>('GET', `/v3/carts/${cart.id}?include=everything`);
    expect(include.status).toBe(422);
  });

  test('a body over 1 MB: 413', async () => {
    const reply = await api<V3Error>('POST', '/v3/carts', {
      line_items: [],
      pad: 'x'.repeat(1_100_000),
    });
    expect(reply.status).toBe(413);
  });
});

describe('cart metafields', () => {
  test('create, list with namespace filter, get, update, delete; duplicate 409; errors', async () => {
    const cart = await createCart([{ product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 1 }]);
    const base = `/v3/carts/${cart.id}/metafields`;
    const created = await api<Data<{ id: number; resource_id: string; resource_type: string }>>(
      'POST',
      base,
      {
        namespace: 'shop',
        key: 'reseller',
        value: '{"seller":"Sophie"}',
        permission_set: 'app_only',
      },
    );
    expect(created.status).toBe(200);
    expectContract('POST /v3/carts/{cartId}/metafields', created.body);
    expect(created.body.data).toMatchObject({ resource_type: 'cart', resource_id: cart.id });
    await api('POST', base, { namespace: 'other', key: 'k', value: 'v', permission_set: 'read' });
    const duplicate = await api<V3Error>('POST', base, {
      namespace: 'shop',
      key: 'reseller',
      value: 'x',
      permission_set: 'app_only',
    });
    expect(duplicate.status).toBe(409);
    const invalid = await api<V3Error>('POST', base, {
      namespace: 'shop',
      key: '',
      value: 'x',
      permission_set: 'all',
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual({
      key: 'key is required',
      permission_set:
        'permission_set must be one of app_only, read, write, read_and_sf_access, write_and_sf_access',
    });
    const all = await api<{ data: { key: string }[] }>('GET', base);
    expectContract('GET /v3/carts/{cartId}/metafields', all.body);
    expect(all.body.data.map((m) => m.key)).toEqual(['reseller', 'k']);
    const filtered = await api<{ data: { key: string }[] }>('GET', `${base}?namespace=shop`);
    expect(filtered.body.data.map((m) => m.key)).toEqual(['reseller']);
    const id = created.body.data.id;
    const one = await api('GET', `${base}/${id}`);
    expectContract('GET /v3/carts/{cartId}/metafields/{metafieldId}', one.body);
    const updated = await api<Data<{ value: string }>>('PUT', `${base}/${id}`, { value: 'new' });
    expectContract('PUT /v3/carts/{cartId}/metafields/{metafieldId}', updated.body);
    expect(updated.body.data.value).toBe('new');
    expect((await api('DELETE', `${base}/${id}`)).status).toBe(204);
    expect((await api('GET', `${base}/${id}`)).status).toBe(404);
    expect(
      (await api('GET', `/v3/carts/00000000-0000-0000-0000-000000000000/metafields`)).status,
    ).toBe(404);
  });
});

describe('checkout', () => {
  test('GET /v3/checkouts/{cartId}: the cart, totals VAT included', async () => {
    const cart = await createCart([
      { product_id: ELYSEE.id, variant_id: ELYSEE.v140, quantity: 1 },
    ]);
    const reply = await api<
      Data<Record<string, unknown> & { cart: { id: string; cart_amount_inc_tax: number } }>
    >('GET', `/v3/checkouts/${cart.id}`);
    expect(reply.status).toBe(200);
    expectContract('GET /v3/checkouts/{checkoutId}', reply.body);
    expect(reply.body.data).toMatchObject({
      id: cart.id,
      grand_total: 819,
      subtotal_inc_tax: 819,
      subtotal_ex_tax: 682.5,
      tax_total: 136.5,
      order_id: null,
      consignments: [],
    });
    expect(reply.body.data.cart).toMatchObject({ id: cart.id, cart_amount_inc_tax: 819 });
  });
});

describe('racing writes to one cart (as upstream)', () => {
  test('20 concurrent adds lose updates; 20 sequential adds give 20', async () => {
    const line = { product_id: PRODUCTS.trackingNone, variant_id: 1217, quantity: 1 };
    const concurrent = await createCart([line]);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        api('POST', `/v3/carts/${concurrent.id}/items`, { line_items: [line] }),
      ),
    );
    const after = await api<Data<Cart>>('GET', `/v3/carts/${concurrent.id}`);
    const raced = after.body.data.line_items.physical_items[0]?.quantity ?? 0;
    expect(raced).toBeLessThan(21);

    const sequential = await createCart([line]);
    for (let i = 0; i < 20; i++) {
      await api('POST', `/v3/carts/${sequential.id}/items`, { line_items: [line] });
    }
    const done = await api<Data<Cart>>('GET', `/v3/carts/${sequential.id}`);
    expect(done.body.data.line_items.physical_items[0]?.quantity).toBe(21);
  });

  test('with cartWriteLatencyMs 0 the window is gone', async () => {
    const fast = await startTestSandbox({ cartWriteLatencyMs: 0 });
    try {
      const call = sandboxApi(fast);
      const line = { product_id: PRODUCTS.trackingNone, variant_id: 1217, quantity: 1 };
      const created = await call<Data<Cart>>('POST', '/v3/carts', { line_items: [line] });
      const id = created.body.data.id;
      // The same 20 concurrent adds as above: none lost.
      await Promise.all(
        Array.from({ length: 20 }, () =>
          call('POST', `/v3/carts/${id}/items`, { line_items: [line] }),
        ),
      );
      const after = await call<Data<Cart>>('GET', `/v3/carts/${id}`);
      expect(after.body.data.line_items.physical_items[0]?.quantity).toBe(21);
    } finally {
      await fast.close();
    }
  });
});

describe("checkbox modifiers (catalog.v3.yml modifiers; spec §9 'Yes' and 'No' in item options)", () => {
  /** Matelas Élysée's take-back checkbox: its 'Yes' and 'No' values. */
  const TAKE_BACK = { id: 10_000_101, yes: 20_000_202, no: 20_000_203 };
  const OPTIONS = '?include=line_items.physical_items.options';
  const takeBack = (value: number | string) => ({ option_id: TAKE_BACK.id, option_value: value });

  test('GET product include=modifiers: the checkbox with its Yes (checked) and No values', async () => {
    const reply = await api<Data<{ modifiers: Record<string, unknown>[] }>>(
      'GET',
      `/v3/catalog/products/${ELYSEE.id}?include=modifiers`,
    );
    expect(reply.status).toBe(200);
    expectContract('GET /v3/catalog/products/{product_id}', reply.body);
    expect(reply.body.data.modifiers).toEqual([
      expect.objectContaining({
        id: TAKE_BACK.id,
        type: 'checkbox',
        required: false,
        display_name: 'Reprise de l’ancien matelas',
        config: expect.objectContaining({ checked_by_default: false }) as unknown,
        option_values: [
          expect.objectContaining({
            id: TAKE_BACK.yes,
            label: 'Yes',
            value_data: { checked_value: true },
          }),
          expect.objectContaining({
            id: TAKE_BACK.no,
            label: 'No',
            value_data: { checked_value: false },
          }),
        ],
      }),
    ]);
  });

  test("a value id or the value's text: the line names the choice after the variant's options", async () => {
    for (const value of [TAKE_BACK.yes, 'Yes', 'yes']) {
      const cart = await createCart(
        [
          {
            product_id: ELYSEE.id,
            variant_id: ELYSEE.v90,
            quantity: 1,
            option_selections: [takeBack(value)],
          },
        ],
        OPTIONS,
      );
      expect(cart.line_items.physical_items[0]?.options).toEqual([
        { name: 'Taille', nameId: ELYSEE.size, value: '90x190 cm', valueId: 501 },
        {
          name: 'Reprise de l’ancien matelas',
          nameId: TAKE_BACK.id,
          value: 'Yes',
          valueId: TAKE_BACK.yes,
        },
      ]);
    }
  });

  test('without variant_id: the selections name the variant and the modifier (carts.v3.yml)', async () => {
    const cart = await createCart(
      [
        {
          product_id: ELYSEE.id,
          quantity: 1,
          option_selections: [
            { option_id: ELYSEE.size, option_value: ELYSEE.v140Value },
            takeBack(TAKE_BACK.no),
          ],
        },
      ],
      OPTIONS,
    );
    const [line] = cart.line_items.physical_items;
    expect(line?.variant_id).toBe(ELYSEE.v140);
    expect(line?.options?.map((o) => o.value)).toEqual(['140x190 cm', 'No']);
  });

  test('another choice makes another line; the same choice merges; an update keeps it', async () => {
    const cart = await createCart(
      [
        {
          product_id: ELYSEE.id,
          variant_id: ELYSEE.v90,
          quantity: 1,
          option_selections: [takeBack('Yes')],
        },
        {
          product_id: ELYSEE.id,
          variant_id: ELYSEE.v90,
          quantity: 1,
          option_selections: [takeBack('No')],
        },
        {
          product_id: ELYSEE.id,
          variant_id: ELYSEE.v90,
          quantity: 2,
          option_selections: [takeBack(TAKE_BACK.yes)],
        },
      ],
      OPTIONS,
    );
    const lines = cart.line_items.physical_items;
    expect(lines.map((l) => [l.quantity, l.options?.at(-1)?.value])).toEqual([
      [3, 'Yes'],
      [1, 'No'],
    ]);
    const yes = lines[0];
    const updated = await api<Data<Cart>>(
      'PUT',
      `/v3/carts/${cart.id}/items/${yes?.id ?? ''}${OPTIONS}`,
      { line_item: { product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 4 } },
    );
    expect(updated.status).toBe(200);
    expect(
      updated.body.data.line_items.physical_items.map((l) => [
        l.quantity,
        l.options?.at(-1)?.value,
      ]),
    ).toEqual([
      [4, 'Yes'],
      [1, 'No'],
    ]);
    // Choosing 'No' on the 'Yes' line merges it into the 'No' line.
    const merged = await api<Data<Cart>>(
      'PUT',
      `/v3/carts/${cart.id}/items/${yes?.id ?? ''}${OPTIONS}`,
      {
        line_item: {
          product_id: ELYSEE.id,
          variant_id: ELYSEE.v90,
          quantity: 4,
          option_selections: [takeBack('No')],
        },
      },
    );
    expect(
      merged.body.data.line_items.physical_items.map((l) => [l.quantity, l.options?.at(-1)?.value]),
    ).toEqual([[5, 'No']]);
  });

  test('a value of no modifier, a modifier named twice, a product without it: 422', async () => {
    const refused: object[][] = [
      [takeBack('Maybe')],
      [takeBack(TAKE_BACK.yes + 7)],
      [takeBack('Yes'), takeBack('No')],
    ];
    for (const selections of refused) {
      const reply = await api<V3Error>('POST', '/v3/carts', {
        line_items: [
          {
            product_id: ELYSEE.id,
            variant_id: ELYSEE.v90,
            quantity: 1,
            option_selections: selections,
          },
        ],
      });
      expect(reply.status).toBe(422);
      expectContract('POST /v3/carts', reply.body, 'error');
    }
    const elsewhere = await api<V3Error>('POST', '/v3/carts', {
      line_items: [
        { product_id: PRODUCTS.priceHidden, quantity: 1, option_selections: [takeBack('Yes')] },
      ],
    });
    expect(elsewhere.status).toBe(422);
  });
});
