/**
 * The sandbox's cart metafields across apps (catalog.v3.yml `permission_set`): a metafield is
 * its writer app's (`owner_client_id`); `app_only` is hidden from other apps, `read` visible,
 * `write` also writable by them; namespace, key and permission_set change by the owner only
 * (403); namespace + key are unique per app and resource (409).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PRODUCTS } from '../src/fixtures.ts';
import { startTestSandbox, type TestSandbox } from '../src/testing.ts';

const OTHER = { token: 'other-app-token', clientId: 'other-app' };
let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ apps: [OTHER] });
});

afterAll(async () => {
  await sandbox.close();
});

async function call(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}/stores/${sandbox.storeHash}/${path}`, {
    method,
    headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text === '' ? null : JSON.parse(text)) as unknown };
}

interface Field {
  id: number;
  namespace: string;
  value: string;
  owner_client_id: string;
}
const field = (reply: { json: unknown }) => (reply.json as { data: Field }).data;
const fields = (reply: { json: unknown }) => (reply.json as { data: Field[] }).data;

async function newCart(): Promise<string> {
  const product = (
    await call(
      sandbox.token,
      'GET',
      `v3/catalog/products/${String(PRODUCTS.trackingNone)}?include=variants`,
    )
  ).json as { data: { variants: { id: number }[] } };
  const cart = await call(sandbox.token, 'POST', 'v3/carts', {
    line_items: [
      { product_id: PRODUCTS.trackingNone, variant_id: product.data.variants[0]?.id, quantity: 1 },
    ],
  });
  return (cart.json as { data: { id: string } }).data.id;
}

describe('cart metafields across apps (permission_set)', () => {
  test('app_only is the writer’s; read is visible; write is writable by others', async () => {
    const cartId = await newCart();
    const path = `v3/carts/${cartId}/metafields`;
    const mine = field(
      await call(sandbox.token, 'POST', path, {
        namespace: 'ns',
        key: 'private',
        value: 'shop',
        permission_set: 'app_only',
      }),
    );
    expect(mine.owner_client_id).toBe(sandbox.clientId);
    const shared = field(
      await call(sandbox.token, 'POST', path, {
        namespace: 'ns',
        key: 'shared',
        value: 'lu',
        permission_set: 'read',
      }),
    );
    const open = field(
      await call(sandbox.token, 'POST', path, {
        namespace: 'ns',
        key: 'open',
        value: 'écrit',
        permission_set: 'write',
      }),
    );

    // The other app sees the read and write ones only.
    const seen = fields(await call(OTHER.token, 'GET', path)).map((f) => f.id);
    expect(seen).toEqual([shared.id, open.id]);
    expect((await call(OTHER.token, 'GET', `${path}/${String(mine.id)}`)).status).toBe(404);
    expect((await call(OTHER.token, 'DELETE', `${path}/${String(mine.id)}`)).status).toBe(404);

    // It may not change a read one, nor anyone's namespace, key or permission_set.
    expect(
      (await call(OTHER.token, 'PUT', `${path}/${String(shared.id)}`, { value: 'x' })).status,
    ).toBe(403);
    expect(
      (await call(OTHER.token, 'PUT', `${path}/${String(open.id)}`, { permission_set: 'app_only' }))
        .status,
    ).toBe(403);
    expect(
      (await call(OTHER.token, 'PUT', `${path}/${String(open.id)}`, { value: 'changé' })).status,
    ).toBe(200);
    expect((await call(OTHER.token, 'DELETE', `${path}/${String(shared.id)}`)).status).toBe(403);

    // Namespace + key are unique per app: the other app may write its own 'ns'/'private'.
    const own = await call(OTHER.token, 'POST', path, {
      namespace: 'ns',
      key: 'private',
      value: 'autre',
      permission_set: 'app_only',
    });
    expect(own.status).toBe(200);
    const again = await call(OTHER.token, 'POST', path, {
      namespace: 'ns',
      key: 'private',
      value: 'encore',
      permission_set: 'app_only',
    });
    expect(again.status).toBe(409);
    // ...which the shop's app does not see.
    const shopSees = fields(await call(sandbox.token, 'GET', `${path}?key=private`));
    expect(shopSees.map((f) => f.value)).toEqual(['shop']);
  });

  test('an unknown token is refused', async () => {
    expect((await call('nope', 'GET', 'v3/carts/x/metafields')).status).toBe(401);
  });
});
