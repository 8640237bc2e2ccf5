import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  addContactToList,
  createBrevoClient,
  deleteContactInfo,
  getContactInfo,
  NEWSLETTER_LIST_ID,
  NewsletterEmailSchema,
  removeContactFromList,
  subscribe,
} from '../../src/shop/connectors/brevo/index.ts';
import { BrevoError } from '../../src/shop/connectors/brevo/client.ts';

interface Sent {
  method: string;
  url: URL;
  body: unknown;
  apiKey: string | null;
}

/** A Brevo client over a fake fetch answering `reply` and recording what was sent. */
function clientAnswering(reply: (sent: Sent) => Response) {
  const sent: Sent[] = [];
  const client = createBrevoClient({
    apiUrl: 'https://api.brevo.test/v3/',
    apiKey: 'secret-key',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const text = await request.text();
      const entry = {
        method: request.method,
        url: new URL(request.url),
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
        apiKey: request.headers.get('api-key'),
      };
      sent.push(entry);
      return reply(entry);
    },
  });
  return { client, sent };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

describe('the newsletter calls send what Brevo documents', () => {
  test('subscribe: POST /contacts with the trimmed, lower-cased address in list 31', async () => {
    const { client, sent } = clientAnswering(() => json(201, { id: 7 }));
    expect(await subscribe(client, '  Marie.Dupont@Exemple.FR ')).toEqual({ id: 7 });
    expect(sent).toEqual([
      {
        method: 'POST',
        url: new URL('https://api.brevo.test/v3/contacts'),
        body: { email: 'marie.dupont@exemple.fr', listIds: [NEWSLETTER_LIST_ID] },
        apiKey: 'secret-key',
      },
    ]);
  });

  test('getContactInfo reads listIds; deleteContactInfo accepts the empty 204', async () => {
    const { client, sent } = clientAnswering(({ method }) =>
      method === 'GET'
        ? json(200, { email: 'a@b.fr', id: 3, listIds: [2, 31], attributes: {} })
        : new Response(null, { status: 204 }),
    );
    expect(await getContactInfo(client, 'A@b.fr')).toEqual({ listIds: [2, 31] });
    await deleteContactInfo(client, 'a@b.fr');
    expect(sent.map((s) => `${s.method} ${s.url.pathname}`)).toEqual([
      'GET /v3/contacts/a%40b.fr',
      'DELETE /v3/contacts/a%40b.fr',
    ]);
  });

  test('add and remove post the addresses to the list, once each', async () => {
    const { client, sent } = clientAnswering(({ body }) =>
      json(201, { contacts: { success: (body as { emails: string[] }).emails, failure: [] } }),
    );
    expect(await addContactToList(client, 31, ['a@b.fr', 'A@B.fr'])).toEqual({
      success: ['a@b.fr'],
      failure: [],
    });
    await removeContactFromList(client, 31, ['c@d.fr']);
    expect(sent.map((s) => [s.url.pathname, s.body])).toEqual([
      ['/v3/contacts/lists/31/contacts/add', { emails: ['a@b.fr'] }],
      ['/v3/contacts/lists/31/contacts/remove', { emails: ['c@d.fr'] }],
    ]);
  });

  test("Brevo's refusals keep its status, code and message", async () => {
    const { client } = clientAnswering(() =>
      json(400, {
        code: 'duplicate_parameter',
        message: 'Unable to create contact, email is already associated with another Contact',
      }),
    );
    const error = await subscribe(client, 'a@b.fr').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrevoError);
    expect(error).toMatchObject({
      status: 400,
      code: 'duplicate_parameter',
      message: 'Unable to create contact, email is already associated with another Contact',
    });
  });

  test('a reply of the wrong shape is an unusable reply (502), not data', async () => {
    const { client } = clientAnswering(() => json(200, { id: 'x', listIds: 'all' }));
    await expect(getContactInfo(client, 'a@b.fr')).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
      status: 502,
    });
  });
});

describe('hostile addresses and lists never reach Brevo', () => {
  test('any string is refused before the call, or sent as one encoded path segment', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          // RFC 5322 local parts may hold `/`, `?`, `#`, `%`: valid, and still one segment.
          fc.emailAddress().map((email) => ` ${email.toUpperCase()} `),
          fc.emailAddress(),
          fc.string({ unit: 'binary', maxLength: 300 }),
        ),
        async (text) => {
          const { client, sent } = clientAnswering(() => json(200, { id: 1, listIds: [] }));
          const accepted = NewsletterEmailSchema.safeParse(text).success;
          const result = await getContactInfo(client, text).then(
            () => 'called',
            () => 'refused',
          );
          expect(result).toBe(accepted ? 'called' : 'refused');
          expect(sent.length).toBe(accepted ? 1 : 0);
          for (const { url } of sent) {
            const segments = url.pathname.split('/');
            expect(segments.slice(0, 3)).toEqual(['', 'v3', 'contacts']);
            expect(segments.length).toBe(4);
            expect(url.search).toBe('');
            expect(decodeURIComponent(segments[3] ?? '')).toBe(text.trim().toLowerCase());
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test('addresses with spaces, control characters, no domain or over 254 characters are refused', () => {
    for (const bad of [
      '',
      'a@b',
      'a b@c.fr',
      'a@b.fr\r\nBcc: x@y.fr',
      'a@@b.fr',
      `${'a'.repeat(250)}@b.fr`,
    ]) {
      expect(NewsletterEmailSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  test('list ids are positive integers and 1 to 150 addresses go in one call', async () => {
    const { client, sent } = clientAnswering(() => json(201, { contacts: {} }));
    for (const listId of [0, -1, 1.5, Number.NaN, 2 ** 60]) {
      await expect(addContactToList(client, listId, ['a@b.fr'])).rejects.toThrow();
    }
    await expect(addContactToList(client, 31, [])).rejects.toThrow(RangeError);
    const many = Array.from({ length: 151 }, (_, i) => `p${i}@b.fr`);
    await expect(addContactToList(client, 31, many)).rejects.toThrow(RangeError);
    expect(sent).toEqual([]);
  });
});
