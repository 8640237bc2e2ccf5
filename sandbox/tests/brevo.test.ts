/** The Brevo subset of the sandbox (`/brevo/v3`): transactional mail kept in an outbox. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../src/testing.ts';

let sandbox: TestSandbox;

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the reply's shape
async function brevo<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  key: string | null = sandbox.brevoKey,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${sandbox.url}/brevo/v3${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      ...(key !== null ? { 'api-key': key } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

const MAIL = {
  sender: { email: 'boutique@literie-lumiere.fr', name: 'Literie Lumière' },
  to: [{ email: 'Marie.Martin@example.fr', name: 'Marie Martin' }],
  subject: 'Réinitialisation de votre mot de passe',
  htmlContent:
    '<p>Bonjour {{ params.name }}, <a href="{{params.link}}">choisissez un mot de passe</a>.</p>',
  params: { name: 'Marie <3', link: 'http://localhost:4321/mot-de-passe?resetToken=abc' },
  tags: ['password-reset'],
};

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox.close();
});

describe('POST /smtp/email', () => {
  test('201 { messageId }; the outbox lists it by recipient, and holds the rendered body', async () => {
    const sent = await brevo<{ messageId: string }>('POST', '/smtp/email', MAIL);
    expect(sent.status).toBe(201);
    expect(sent.body.messageId).toMatch(/^<\d{14}\.[0-9a-f]{16}@smtp-relay\.mailin\.fr>$/);
    const list = await brevo<{ count: number; transactionalEmails: Record<string, unknown>[] }>(
      'GET',
      `/smtp/emails?email=${encodeURIComponent('marie.martin@example.fr')}&limit=10&offset=0&sort=desc`,
    );
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(1);
    const [entry] = list.body.transactionalEmails;
    expect(entry).toMatchObject({
      email: 'marie.martin@example.fr',
      subject: MAIL.subject,
      messageId: sent.body.messageId,
      from: MAIL.sender.email,
      tags: ['password-reset'],
    });
    const byId = await brevo<{ count: number }>(
      'GET',
      `/smtp/emails?messageId=${encodeURIComponent(sent.body.messageId)}`,
    );
    expect(byId.body.count).toBe(1);
    const mail = await brevo<Record<string, unknown>>('GET', `/smtp/emails/${String(entry?.uuid)}`);
    expect(mail.status).toBe(200);
    expect(mail.body).toMatchObject({
      email: 'marie.martin@example.fr',
      subject: MAIL.subject,
      attachmentCount: 0,
      body: '<p>Bonjour Marie &lt;3, <a href="http://localhost:4321/mot-de-passe?resetToken=abc">choisissez un mot de passe</a>.</p>',
    });
    expect(mail.body.events).toEqual([{ name: 'sent', time: mail.body.date }]);
  });

  test('newest first by default; offset and limit; asc', async () => {
    for (const subject of ['un', 'deux', 'trois']) {
      await brevo('POST', '/smtp/email', { ...MAIL, to: [{ email: 'ordre@example.fr' }], subject });
    }
    const desc = await brevo<{ count: number; transactionalEmails: { subject: string }[] }>(
      'GET',
      '/smtp/emails?email=ordre@example.fr&limit=2',
    );
    expect(desc.body.count).toBe(3);
    expect(desc.body.transactionalEmails.map((m) => m.subject)).toEqual(['trois', 'deux']);
    const asc = await brevo<{ transactionalEmails: { subject: string }[] }>(
      'GET',
      '/smtp/emails?email=ordre@example.fr&sort=asc&offset=1',
    );
    expect(asc.body.transactionalEmails.map((m) => m.subject)).toEqual(['deux', 'trois']);
  });

  test.each([
    [{ ...MAIL, sender: undefined }, 'missing_parameter', 'sender is missing'],
    [
      { ...MAIL, sender: { email: 'pas-un-email' } },
      'invalid_parameter',
      'sender.email is not valid',
    ],
    [{ ...MAIL, to: undefined }, 'missing_parameter', 'to is missing'],
    [{ ...MAIL, to: [] }, 'invalid_parameter', 'to is not valid'],
    [{ ...MAIL, to: [{ name: 'x' }] }, 'missing_parameter', 'to[0].email is missing'],
    [{ ...MAIL, subject: '' }, 'missing_parameter', 'subject is missing'],
    [
      { ...MAIL, htmlContent: undefined },
      'missing_parameter',
      'htmlContent or textContent or templateId is missing',
    ],
    [{ ...MAIL, templateId: 'x' }, 'invalid_parameter', 'templateId is not valid'],
  ])('400 %#: %s', async (body, code, message) => {
    const reply = await brevo('POST', '/smtp/email', body);
    expect(reply).toEqual({ status: 400, body: { code, message } });
  });

  test('a template id stands for subject and content', async () => {
    const reply = await brevo('POST', '/smtp/email', {
      to: [{ email: 'modele@example.fr' }],
      templateId: 12,
      params: { a: 1 },
    });
    expect(reply.status).toBe(201);
    const list = await brevo<{ transactionalEmails: { templateId: number }[] }>(
      'GET',
      '/smtp/emails?templateId=12',
    );
    expect(list.body.transactionalEmails[0]?.templateId).toBe(12);
  });
});

describe('errors of the subset', () => {
  test('wrong or missing api-key: 401 unauthorized', async () => {
    for (const key of [null, 'nope']) {
      const reply = await brevo('GET', '/smtp/emails?email=x@example.fr', undefined, key);
      expect(reply).toEqual({
        status: 401,
        body: { code: 'unauthorized', message: 'Key not found' },
      });
    }
  });

  test('list without a filter 400; unknown uuid 404; bad JSON 400; unknown path 404; wrong method 405', async () => {
    expect(await brevo('GET', '/smtp/emails')).toEqual({
      status: 400,
      body: { code: 'missing_parameter', message: 'email, messageId or templateId is required' },
    });
    expect((await brevo('GET', '/smtp/emails/00000000-0000-0000-0000-000000000000')).status).toBe(
      404,
    );
    const bad = await fetch(`${sandbox.url}/brevo/v3/smtp/email`, {
      method: 'POST',
      headers: { 'api-key': sandbox.brevoKey, 'Content-Type': 'application/json' },
      body: '{',
    });
    expect(bad.status).toBe(400);
    expect((await brevo('GET', '/contacts/nobody@example.fr')).status).toBe(404);
    expect((await brevo('DELETE', '/smtp/email')).status).toBe(405);
  });
});
