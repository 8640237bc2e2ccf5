/**
 * TRUSTED_PROXIES over real HTTP: behind a trusted TLS load balancer
 * the shop believes `X-Forwarded-For`/`-Proto`/`-Host` (cookies `Secure`, origin checks against
 * the public https origin, limits on the real client); from anyone else those headers change
 * nothing. The API runs behind the client middleware (shop-api bridge, with a lower
 * per-address login threshold: each failed login costs the sandbox a slow password check); the
 * pages' middleware sequence (`src/shop/middleware/on-request.ts`' order) runs on its own server with a stand-in page.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createContext } from 'astro/middleware';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { parseTrustedProxies } from '../../src/shop/auth/client.ts';
import { testMiddleware } from './helpers/middleware.ts';
import { createMemoryStore } from '../../src/shop/state/memory.ts';
import { createAccountThrottle, THROTTLE_RULES } from '../../src/shop/throttle/throttle.ts';
import {
  CLIENT_IP_HEADER,
  SESSION_SECRET,
  startShopApi,
  type ShopApi,
} from './helpers/shop-api.ts';

const { marie } = CUSTOMERS;
const TRUSTED = '10.0.0.0/8, fd00::/8';
const PROXY = '10.0.0.2';
const PUBLIC = 'https://shop.example';
const RULES = { ...THROTTLE_RULES, loginAddress: { ...THROTTLE_RULES.loginAddress, free: 5 } };
const FORBIDDEN = { status: 403, json: { message: 'Forbidden', statusCode: 403 } };
const TOO_MANY = { status: 429, json: { message: 'Too many attempts', statusCode: 429 } };
/** What a TLS load balancer adds for a browser at `client` on https://shop.example. */
const forwarded = (client: string) => ({
  'X-Forwarded-For': client,
  'X-Forwarded-Proto': 'https',
  'X-Forwarded-Host': 'shop.example',
});

let emails = 0;
const newEmail = () => `proxy.${Date.now()}.${(emails += 1)}@example.fr`;

describe('the API behind TRUSTED_PROXIES', () => {
  let api: ShopApi;

  beforeAll(async () => {
    // The throttle's clock stands still: no wait ends while a test looks at it.
    const started = Date.now();
    const now = () => started;
    const store = createMemoryStore({ now });
    api = await startShopApi({
      trustedProxies: TRUSTED,
      store,
      account: {
        throttle: createAccountThrottle({ store, secret: SESSION_SECRET, rules: RULES, now }),
      },
    });
  });

  afterAll(async () => {
    await api.close();
  });

  const json = { 'Content-Type': 'application/json' };
  const login = [{ email: marie.email, password: marie.password }];

  test('behind a trusted TLS proxy: Origin https://shop.example passes and every cookie is Secure', async () => {
    const reply = await api.shopper({ ip: PROXY }).call('loginCustomer', login, {
      headers: { ...json, Origin: PUBLIC, ...forwarded('203.0.113.5') },
    });
    expect(reply.status).toBe(200);
    expect(reply.setCookies.map((c) => c.split('=')[0])).toEqual([
      'device',
      'session',
      'authenticated',
    ]);
    for (const cookie of reply.setCookies) expect(cookie).toMatch(/; Secure(;|$)/);
    // The origin the shop sees is the public one: its own http origin is refused there.
    expect(
      await api.shopper({ ip: PROXY }).call('loginCustomer', login, {
        headers: { ...json, Origin: api.base, ...forwarded('203.0.113.5') },
      }),
    ).toMatchObject(FORBIDDEN);
  });

  test('from an untrusted peer the same headers are ignored: https Origin refused, cookies not Secure', async () => {
    const peer = { ip: '198.51.100.9' };
    api.clearUpstream();
    expect(
      await api.shopper(peer).call('loginCustomer', login, {
        headers: { ...json, Origin: PUBLIC, ...forwarded('203.0.113.5') },
      }),
    ).toMatchObject(FORBIDDEN);
    expect(api.upstream).toEqual([]);
    const reply = await api.shopper(peer).call('loginCustomer', login, {
      headers: { ...json, Origin: api.base, ...forwarded('203.0.113.5') },
    });
    expect(reply.status).toBe(200);
    expect(reply.setCookies).toHaveLength(3);
    for (const cookie of reply.setCookies) expect(cookie).not.toMatch(/Secure/);
  });

  /** The free failed logins of an address, new e-mails each through `via` for `client`. */
  async function flood(via: string, client: (i: number) => string) {
    for (let i = 0; i < RULES.loginAddress.free; i += 1) {
      const reply = await api
        .shopper({ ip: via })
        .call('loginCustomer', [{ email: newEmail(), password: 'Mauvais1' }], {
          headers: { ...json, Origin: PUBLIC, ...forwarded(client(i)) },
        });
      expect(reply.status).toBe(401);
    }
  }

  const attempt = (via: string, client: string) =>
    api.shopper({ ip: via }).call('loginCustomer', login, {
      headers: { ...json, Origin: via === PROXY ? PUBLIC : api.base, ...forwarded(client) },
    });

  test('behind the proxy, limits count the real client: the right-most hop the proxy did not write', async () => {
    // The flooding client writes a different address of its own left of the proxy's entry.
    await flood(PROXY, (i) => `192.0.2.${i}, 203.0.113.20`);
    expect(await attempt(PROXY, '203.0.113.20')).toMatchObject(TOO_MANY);
    expect(await attempt(PROXY, '198.18.0.1, 203.0.113.20')).toMatchObject(TOO_MANY);
    // Another shopper behind the same load balancer is not slowed down.
    expect((await attempt(PROXY, '203.0.113.21')).status).toBe(200);
    // A chain of trusted proxies: the client is the first untrusted hop from the right.
    expect(await attempt(PROXY, '203.0.113.20, 10.1.2.3')).toMatchObject(TOO_MANY);
  });

  test('from an untrusted peer, X-Forwarded-For changes nothing: the peer is counted', async () => {
    const peer = '198.51.100.77';
    for (let i = 0; i < RULES.loginAddress.free; i += 1) {
      const reply = await api
        .shopper({ ip: peer })
        .call('loginCustomer', [{ email: newEmail(), password: 'Mauvais1' }], {
          headers: { ...json, Origin: api.base, 'X-Forwarded-For': `192.0.2.${i}` },
        });
      expect(reply.status).toBe(401);
    }
    expect(await attempt(peer, '203.0.113.99')).toMatchObject(TOO_MANY);
  });
});

describe('pages behind TRUSTED_PROXIES: the middleware sequence', () => {
  let server: Server;
  let base = '';

  beforeAll(async () => {
    const middleware = testMiddleware({
      redirects: { load: () => Promise.resolve({ redirects: [], shopHosts: [] }) },
      guards: { isLoggedIn: () => Promise.resolve(false) },
      client: { trustedProxies: parseTrustedProxies(TRUSTED) },
    });
    server = createServer((req, res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      // As Astro's node adapter: the URL from `Host`, the TCP peer as `clientAddress`.
      const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
      });
      const ip = req.headers[CLIENT_IP_HEADER];
      const context = createContext({
        request,
        defaultLocale: 'fr',
        clientAddress: typeof ip === 'string' ? ip : (req.socket.remoteAddress ?? ''),
      });
      const next = () =>
        Promise.resolve(
          new Response(`page ${context.url.pathname} ${context.locals.clientInfo.origin}`),
        );
      void Promise.resolve(middleware(context, next)).then(async (response) => {
        const reply = response ?? new Response('no response', { status: 500 });
        res.writeHead(reply.status, Object.fromEntries(reply.headers));
        res.end(await reply.text());
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  });

  async function send(path: string, method: string, headers: Record<string, string>) {
    const response = await fetch(`${base}${path}`, { method, headers, redirect: 'manual' });
    return {
      status: response.status,
      text: await response.text(),
      setCookie: response.headers.get('set-cookie'),
    };
  }

  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };

  test.each([
    [
      'the shop’s own form through the TLS proxy: passes',
      { [CLIENT_IP_HEADER]: PROXY, ...forwarded('203.0.113.5'), ...form, Origin: PUBLIC },
      200,
    ],
    [
      'the same form from an untrusted peer (its headers ignored): 403',
      { [CLIENT_IP_HEADER]: '198.51.100.9', ...forwarded('203.0.113.5'), ...form, Origin: PUBLIC },
      403,
    ],
    [
      'another site’s form through the proxy: 403',
      {
        [CLIENT_IP_HEADER]: PROXY,
        ...forwarded('203.0.113.5'),
        ...form,
        Origin: 'https://evil.example',
      },
      403,
    ],
    [
      'Sec-Fetch-Site cross-site through the proxy: 403',
      {
        [CLIENT_IP_HEADER]: PROXY,
        ...forwarded('203.0.113.5'),
        ...form,
        'Sec-Fetch-Site': 'cross-site',
      },
      403,
    ],
    ['no Origin, a form body: 403', { [CLIENT_IP_HEADER]: PROXY, ...form }, 403],
  ])('POST /paiement, %s', async (_case, headers, status) => {
    const reply = await send('/paiement', 'POST', headers);
    expect(reply.status).toBe(status);
    expect(reply.text).toBe(status === 200 ? `page /paiement ${PUBLIC}` : 'Requête refusée.');
  });

  test('a direct form post to the shop’s own origin passes; GET is never checked', async () => {
    expect(await send('/paiement', 'POST', { ...form, Origin: base })).toMatchObject({
      status: 200,
    });
    expect(
      await send('/panier', 'GET', {
        Origin: 'https://evil.example',
        'Sec-Fetch-Site': 'cross-site',
      }),
    ).toMatchObject({ status: 200, text: `page /panier ${base}` });
  });

  test('the guard’s return-path cookie is Secure behind the TLS proxy only', async () => {
    const behind = await send('/mon-compte', 'GET', {
      [CLIENT_IP_HEADER]: PROXY,
      ...forwarded('203.0.113.5'),
    });
    expect(behind.status).toBe(302);
    expect(behind.setCookie).toMatch(/; Secure(;|$)/);
    const direct = await send('/mon-compte', 'GET', {
      [CLIENT_IP_HEADER]: '198.51.100.9',
      ...forwarded('203.0.113.5'),
    });
    expect(direct.status).toBe(302);
    expect(direct.setCookie).not.toBeNull();
    expect(direct.setCookie).not.toMatch(/Secure/);
  });
});
