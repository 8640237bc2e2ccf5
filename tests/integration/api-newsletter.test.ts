/**
 * The `brevo` service of the shop API over real HTTP against the sandbox's Brevo (spec §7
 * newsletter provider, §8 its errors): anyone subscribes, throttled; a contact's lists are read
 * and changed only by the logged-in customer, for their own address, in list 31.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { THROTTLE_RULES } from '../../src/shop/throttle/throttle.ts';
import { startShopApi, type ShopApi } from './helpers/shop-api.ts';

let api: ShopApi;

beforeAll(async () => {
  api = await startShopApi();
});

afterAll(async () => {
  await api.close();
});

const { marie, reseller } = CUSTOMERS;
let emails = 0;
const newEmail = () => `lecteur.${Date.now()}.${(emails += 1)}@example.fr`;
const list = (email: string, listId = 31) => ({ listId, contactEmails: { emails: [email] } });

/** Brevo's own view of a contact, straight from the sandbox. */
async function contactLists(email: string): Promise<number[] | null> {
  const response = await fetch(
    `${api.sandbox.url}/brevo/v3/contacts/${encodeURIComponent(email)}`,
    { headers: { 'api-key': api.sandbox.brevoKey } },
  );
  if (response.status === 404) return null;
  return ((await response.json()) as { listIds: number[] }).listIds;
}

describe('subscribe (spec §4 footer form)', () => {
  test('a visitor subscribes an address: it is in list 31; the same address again is a 400', async () => {
    const email = newEmail();
    const shopper = api.shopper({ ip: '198.51.100.10' });
    expect(
      await shopper.call('brevo.subscribe', [{ email: ` ${email.toUpperCase()} ` }]),
    ).toMatchObject({ status: 200, json: { data: null } });
    expect(await contactLists(email)).toEqual([31]);
    const again = await shopper.call('brevo.subscribe', [{ email }]);
    expect(again.status).toBe(400);
    expect(again.json.statusCode).toBe(400);
  });

  test('bad input is a 400 before Brevo is called, and subscribes nobody', async () => {
    const shopper = api.shopper({ ip: '198.51.100.11' });
    for (const args of [
      [],
      [{}],
      [{ email: 'pas-un-email' }],
      [{ email: 'a@b.fr', listIds: [1] }],
      [{ email: `${'x'.repeat(260)}@b.fr` }],
      [{ email: 'a@b.fr\r\nBcc: c@d.fr' }],
      ['a@b.fr'],
    ]) {
      const reply = await shopper.call('brevo.subscribe', args);
      expect(reply.status, JSON.stringify(args)).toBe(400);
    }
    expect(await contactLists('a@b.fr')).toBeNull();
  });

  test('a cross-site or non-JSON call is refused (403): a page elsewhere cannot sign people up', async () => {
    const email = newEmail();
    const reply = await api.shopper().call('brevo.subscribe', [{ email }], {
      headers: { 'Content-Type': 'text/plain', Origin: 'https://evil.example' },
    });
    expect(reply.status).toBe(403);
    expect(await contactLists(email)).toBeNull();
  });

  test('sign-ups from one address are limited: 429 with Retry-After, and nobody more is subscribed', async () => {
    const shopper = api.shopper({ ip: '203.0.113.77' });
    const statuses: number[] = [];
    let lastEmail = '';
    // The shop's own limit, sized for shared addresses (carrier-grade NAT): the free sign-ups
    // all pass, the next one waits.
    const free = THROTTLE_RULES.newsletterAddress.free;
    for (let i = 0; i <= free; i++) {
      lastEmail = newEmail();
      const reply = await shopper.call('brevo.subscribe', [{ email: lastEmail }]);
      statuses.push(reply.status);
      if (reply.status === 429) expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses.slice(0, free)).toEqual(Array(free).fill(200));
    expect(statuses[free]).toBe(429);
    expect(await contactLists(lastEmail)).toBeNull();
  }, 120_000);
});

describe("a contact's lists: the logged-in customer's own address only", () => {
  test('a visitor gets 401 for every contact method and learns nothing', async () => {
    const email = newEmail();
    await api.shopper({ ip: '198.51.100.20' }).call('brevo.subscribe', [{ email }]);
    const visitor = api.shopper();
    expect((await visitor.call('brevo.getContactInfo', [email])).status).toBe(401);
    expect((await visitor.call('brevo.deleteContactInfo', [email])).status).toBe(401);
    expect((await visitor.call('brevo.removeContactFromList', [list(email)])).status).toBe(401);
    expect((await visitor.call('brevo.addContactToList', [list(email)])).status).toBe(401);
    expect(await contactLists(email)).toEqual([31]);
  });

  test("a customer cannot read or change another's contact (403), in any case or spacing", async () => {
    await api.shopper({ ip: '198.51.100.21' }).call('brevo.subscribe', [{ email: reseller.email }]);
    const shopper = api.shopper();
    await shopper.login(marie.email, marie.password);
    for (const other of [reseller.email, ` ${reseller.email.toUpperCase()} `]) {
      expect((await shopper.call('brevo.getContactInfo', [other])).status).toBe(403);
      expect((await shopper.call('brevo.deleteContactInfo', [other])).status).toBe(403);
      expect((await shopper.call('brevo.removeContactFromList', [list(other)])).status).toBe(403);
    }
    expect(await contactLists(reseller.email)).toEqual([31]);
  });

  test('the customer reads, leaves and rejoins list 31 with their own address; other lists are refused', async () => {
    const shopper = api.shopper({ ip: '198.51.100.22' });
    await shopper.login(marie.email, marie.password);
    const own = marie.email.toUpperCase();
    // Not a contact yet: Brevo's 404 comes back as such.
    expect((await shopper.call('brevo.getContactInfo', [own])).status).toBe(404);
    expect(await shopper.data('brevo.subscribe', [{ email: own }])).toBeNull();
    expect(await shopper.data('brevo.getContactInfo', [own])).toEqual({ listIds: [31] });
    expect(await shopper.data('brevo.removeContactFromList', [list(own)])).toEqual({
      success: [marie.email],
      failure: [],
    });
    expect(await contactLists(marie.email)).toEqual([]);
    // spec §8: adding a contact already in the list (or unknown) is a 400.
    expect(await shopper.data('brevo.addContactToList', [list(own)])).toMatchObject({
      success: [marie.email],
    });
    expect((await shopper.call('brevo.addContactToList', [list(own)])).status).toBe(400);
    expect((await shopper.call('brevo.addContactToList', [list(own, 2)])).status).toBe(400);
    expect(
      (
        await shopper.call('brevo.addContactToList', [
          { listId: 31, contactEmails: { emails: [own, own] } },
        ])
      ).status,
    ).toBe(400);
    expect(await shopper.data('brevo.deleteContactInfo', [own])).toBeNull();
    expect(await contactLists(marie.email)).toBeNull();
  });
});
