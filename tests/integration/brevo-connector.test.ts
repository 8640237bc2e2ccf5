/**
 * The shop's Brevo contacts connector (`src/shop/connectors/brevo/contacts.ts`) against the
 * sandbox's emulation of Brevo's contacts and lists: the replies it accepts and the refusals
 * the newsletter shows (spec §8: 400 on subscribe, 400 on add to list).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  addContactToList,
  createBrevoClient,
  deleteContactInfo,
  getContactInfo,
  NEWSLETTER_LIST_ID,
  removeContactFromList,
  subscribe,
  type BrevoClient,
} from '../../src/shop/connectors/brevo/index.ts';
import { BrevoError } from '../../src/shop/connectors/brevo/client.ts';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';

let sandbox: TestSandbox;
let client: BrevoClient;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = createBrevoClient({ apiUrl: `${sandbox.url}/brevo/v3`, apiKey: sandbox.brevoKey });
});

afterAll(async () => {
  await sandbox.close();
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('newsletter contacts through the connector', () => {
  test('subscribe puts a new contact in list 31; a second subscribe is refused with 400', async () => {
    const created = await subscribe(client, ' Nina.Leroy@Example.FR ');
    expect(created.id).toEqual(expect.any(Number));
    expect(await getContactInfo(client, 'nina.leroy@example.fr')).toEqual({
      listIds: [NEWSLETTER_LIST_ID],
    });
    const again = await refusal(subscribe(client, 'nina.leroy@example.fr'));
    expect(again).toBeInstanceOf(BrevoError);
    expect(again).toMatchObject({ status: 400, code: 'duplicate_parameter' });
  });

  test('a known contact leaves and rejoins the list; adding it twice is refused with 400', async () => {
    await subscribe(client, 'paul.roux@example.fr');
    expect(
      await removeContactFromList(client, NEWSLETTER_LIST_ID, ['paul.roux@example.fr']),
    ).toEqual({ success: ['paul.roux@example.fr'], failure: [] });
    expect(await getContactInfo(client, 'paul.roux@example.fr')).toEqual({ listIds: [] });
    const added = await addContactToList(client, NEWSLETTER_LIST_ID, ['paul.roux@example.fr']);
    expect(added.success).toEqual(['paul.roux@example.fr']);
    const twice = await refusal(
      addContactToList(client, NEWSLETTER_LIST_ID, ['paul.roux@example.fr']),
    );
    expect(twice).toMatchObject({ status: 400, code: 'invalid_parameter' });
  });

  test('an unknown contact: 404 on read and delete, 400 on add to the list', async () => {
    expect(await refusal(getContactInfo(client, 'personne@example.fr'))).toMatchObject({
      status: 404,
      code: 'document_not_found',
    });
    expect(await refusal(deleteContactInfo(client, 'personne@example.fr'))).toMatchObject({
      status: 404,
    });
    expect(
      await refusal(addContactToList(client, NEWSLETTER_LIST_ID, ['personne@example.fr'])),
    ).toMatchObject({ status: 400, code: 'invalid_parameter' });
  });

  test('delete removes the contact, which can then subscribe again', async () => {
    await subscribe(client, 'lea.petit@example.fr');
    await deleteContactInfo(client, 'LEA.PETIT@example.fr');
    expect(await refusal(getContactInfo(client, 'lea.petit@example.fr'))).toMatchObject({
      status: 404,
    });
    expect((await subscribe(client, 'lea.petit@example.fr')).id).toEqual(expect.any(Number));
  });

  test('an unknown list is 404; a wrong key is 401 and changes nothing', async () => {
    expect(await refusal(subscribe(client, 'x@example.fr', 999_999))).toMatchObject({
      status: 404,
    });
    const intruder = createBrevoClient({
      apiUrl: `${sandbox.url}/brevo/v3`,
      apiKey: 'wrong-key',
    });
    expect(await refusal(subscribe(intruder, 'y@example.fr'))).toMatchObject({ status: 401 });
    expect(await refusal(getContactInfo(client, 'y@example.fr'))).toMatchObject({ status: 404 });
  });
});
