/**
 * The shared state of the shop API (sessions that end, several server copies) over
 * real HTTP, against each store: memory, the SQLite file and Redis (a redis-server started by
 * this file). Two API bridges on one sandbox stand for two server copies; each has its own
 * store client on the same state (for memory: one store in this process).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Cart, CurrentCustomer } from '../../src/lib/commerce/types.ts';
import { createFileStore } from '../../src/shop/state/file.ts';
import type { SharedStore } from '../../src/shop/state/types.ts';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { testStores } from './helpers/redis.ts';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';
import {
  BREVO_KEY,
  someVariant,
  startShopApi,
  type Shopper,
  type ShopApi,
} from './helpers/shop-api.ts';

const INVALID_LINK = {
  status: 400,
  json: { message: 'Invalid or expired reset link', statusCode: 400 },
};

let emails = 0;
const newEmail = () => `partage.${Date.now()}.${(emails += 1)}@example.fr`;

/** The same browser on another server copy: its cookies, sent to `api`. */
function sameBrowser(api: ShopApi, shopper: Shopper): Shopper {
  const other = api.shopper();
  for (const [name, value] of shopper.cookies) other.cookies.set(name, value);
  return other;
}

const customerOf = async (shopper: Shopper) =>
  (await shopper.data<CurrentCustomer | null>('getCustomers', []))?.id ?? null;

async function resetToken(sandbox: TestSandbox, email: string): Promise<string> {
  const headers = { 'api-key': BREVO_KEY };
  const listed = (await (
    await fetch(
      `${sandbox.url}/brevo/v3/smtp/emails?email=${encodeURIComponent(email)}&sort=desc`,
      {
        headers,
      },
    )
  ).json()) as { transactionalEmails: { uuid: string }[] };
  const uuid = listed.transactionalEmails[0]?.uuid ?? '';
  const mail = (await (
    await fetch(`${sandbox.url}/brevo/v3/smtp/emails/${uuid}`, { headers })
  ).json()) as { body: string };
  const href = /href="([^"]+)"/.exec(mail.body)?.[1]?.replaceAll('&amp;', '&') ?? '';
  return new URL(href).searchParams.get('resetToken') ?? '';
}

describe.each(testStores())('shared state on the $kind store', (kind) => {
  let sandbox: TestSandbox;
  let stores: SharedStore[];
  let a: ShopApi;
  let b: ShopApi;

  beforeAll(async () => {
    await kind.setup();
    sandbox = await startTestSandbox();
    const first = kind.open();
    // Memory cannot be shared between processes: both bridges use the one store.
    stores = [first, kind.kind === 'memory' ? first : kind.open()];
    a = await startShopApi({ sandbox, store: stores[0] });
    b = await startShopApi({ sandbox, store: stores[1] });
  });

  afterAll(async () => {
    // Each bridge closes its store (closing the one memory store twice is harmless).
    await a.close();
    await b.close();
    await sandbox.close();
    await kind.teardown();
  });

  async function newCustomer(api: ShopApi, password: string) {
    const email = newEmail();
    const shopper = api.shopper();
    const created = await shopper.data<CurrentCustomer>('createCustomer', [
      { email, firstName: 'Léa', lastName: 'Partage', password, createAccount: true },
    ]);
    return { email, id: created.id, shopper };
  }

  test('logout ends the session on both copies; a replayed cookie reads a visitor', async () => {
    const laptop = a.shopper();
    const id = await laptop.login(CUSTOMERS.marie.email, CUSTOMERS.marie.password);
    const phone = b.shopper();
    await phone.login(CUSTOMERS.marie.email, CUSTOMERS.marie.password);
    const replayOnB = sameBrowser(b, laptop);
    expect(await customerOf(replayOnB)).toBe(id);

    expect(await laptop.call('logoutCustomer', [])).toMatchObject({
      status: 200,
      json: { data: null },
    });
    expect(laptop.cookies.has('session')).toBe(false);
    // The cookie kept from before the logout, sent again to either copy.
    expect(await customerOf(replayOnB)).toBeNull();
    expect(await customerOf(sameBrowser(a, replayOnB))).toBeNull();
    expect(await replayOnB.call('getCustomerAddress', [])).toMatchObject({
      status: 401,
      json: { message: 'Login required' },
    });
    // Another device of the same customer stays logged in.
    expect(await customerOf(phone)).toBe(id);
  });

  test('a reset link used on one copy is refused on the other; earlier sessions end', async () => {
    const { email, id, shopper } = await newCustomer(a, 'Ancien123');
    const elsewhere = sameBrowser(b, shopper);
    expect(await customerOf(elsewhere)).toBe(id);
    await a.shopper().data('generateOttAndToken', [{ email }]);
    const token = await resetToken(sandbox, email);

    expect(
      await a
        .shopper()
        .call('sendResetPasswordEmail', [{ password: 'Nouveau456', resetToken: token }]),
    ).toMatchObject({ status: 200, json: { data: { email } } });
    expect(
      await b
        .shopper()
        .call('sendResetPasswordEmail', [{ password: 'Pirate789', resetToken: token }]),
    ).toMatchObject(INVALID_LINK);

    // Every session issued before the reset ended, on both copies.
    expect(await customerOf(shopper)).toBeNull();
    expect(await customerOf(elsewhere)).toBeNull();
    // The new password logs in (right after the reset), on either copy.
    const again = b.shopper();
    expect(await again.login(email, 'Nouveau456')).toBe(id);
    expect(await customerOf(sameBrowser(a, again))).toBe(id);
  });

  test('two simultaneous uses of one reset link, on two copies: exactly one succeeds', async () => {
    const { email } = await newCustomer(b, 'Ancien123');
    await b.shopper().data('generateOttAndToken', [{ email }]);
    const token = await resetToken(sandbox, email);
    const replies = await Promise.all(
      [a, b, a, b].map((api, i) =>
        api
          .shopper()
          .call('sendResetPasswordEmail', [{ password: `Nouveau${i}99`, resetToken: token }]),
      ),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400]);
    for (const refused of replies.filter((r) => r.status === 400)) {
      expect(refused).toMatchObject(INVALID_LINK);
    }
    // The winner's password is the one set.
    const winner = replies.findIndex((r) => r.status === 200);
    expect(await a.shopper().login(email, `Nouveau${winner}99`)).toBeGreaterThan(0);
  });

  test('20 concurrent adds to one cart spread over both copies give quantity 20', async () => {
    const line = await someVariant(a, 0);
    const other = await someVariant(a, 1);
    const guest = a.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...other, quantity: 1 }] }]);
    const onB = sameBrowser(b, guest);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? guest : onB).call('addCartItems', [
          { cartId: cart.id, lineItems: [{ ...line, quantity: 1 }] },
        ]),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const final = await onB.data<Cart>('getCart', [{ id: cart.id }]);
    const quantity = (productId: number) =>
      final.lineItems.physicalItems.find((item) => item.productId === productId)?.quantity;
    expect([quantity(other.productId), quantity(line.productId)]).toEqual([1, 20]);
    expect([a.account.cartQueue.size, b.account.cartQueue.size]).toEqual([0, 0]);
  });
});

describe('file store: sessions stay ended across a restart', () => {
  let dir = '';
  let sandbox: TestSandbox;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'shared-state-'));
    sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a logged-out cookie is refused by the restarted server', async () => {
    const before = await startShopApi({ sandbox, store: createFileStore({ dir }) });
    const shopper = before.shopper();
    await shopper.login(CUSTOMERS.marie.email, CUSTOMERS.marie.password);
    const kept = new Map(shopper.cookies);
    await shopper.data('logoutCustomer', []);
    await before.close();

    const after = await startShopApi({ sandbox, store: createFileStore({ dir }) });
    const replay = after.shopper();
    for (const [name, value] of kept) replay.cookies.set(name, value);
    expect(await customerOf(replay)).toBeNull();
    await after.close();
  });
});
