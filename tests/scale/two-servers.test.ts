/**
 * Two copies of the production server behind no balancer:
 * two `scripts/start.ts --no-build` processes on two ports, on the build `npm test` made
 * (DIST_DIR), sharing one Redis and one fresh sandbox on the port that build talks to. Proves
 * over HTTP that the shared state is shared: cart writes, login limits, logout, reset links.
 * Run by `npm test` after the build (vitest project `scale`); by hand:
 * `DIST_DIR=dist-x SANDBOX_PORT=N npx vitest run --project scale` on a build made with those.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Cart, CurrentCustomer } from '../../src/lib/commerce/types.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { someVariant } from '../integration/helpers/shop-api.ts';
import { startSandbox } from '@literie/sandbox/server';
import { freePort } from '../../src/server/free-port.ts';
import { redisAvailable, startRedis, type TestRedis } from '../integration/helpers/redis.ts';
import { DIST_DIR, requireBuild, SANDBOX_PORT } from './helpers/suite.ts';

const SESSION_SECRET = 'two-servers-test-session-secret-0123456789';
const BREVO_KEY = 'sandbox-brevo-key';

/** One shop server process. */
interface ShopServer {
  base: string;
  process: ChildProcess;
  output: () => string;
}

async function startShop(port: number, env: NodeJS.ProcessEnv): Promise<ShopServer> {
  const child = spawn(process.execPath, ['scripts/start.ts', '--no-build'], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the shop on ${port} exited:\n${output}`);
    const up = await fetch(`${base}/connexion`, { redirect: 'manual' }).then(
      (r) => r.status < 500,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`the shop on ${port} did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { base, process: child, output: () => output };
}

function stopShop(server: ShopServer | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (server?.process.exitCode !== null) {
      resolve();
      return;
    }
    server.process.once('exit', () => {
      resolve();
    });
    server.process.kill('SIGTERM');
  });
}

/** A browser: one cookie jar, whichever copy it calls (cookies do not depend on the port). */
class Browser {
  readonly cookies = new Map<string, string>();

  async call(
    server: ShopServer,
    method: string,
    args: unknown[] = [],
  ): Promise<{ status: number; json: { data?: unknown; message?: string } }> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Origin: server.base,
      'Sec-Fetch-Site': 'same-origin',
    };
    if (this.cookies.size > 0) {
      headers.Cookie = [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    }
    const response = await fetch(`${server.base}/api/bigcommerce/${method}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(args),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      if (/;\s*max-age=0(;|$)/i.test(cookie)) this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return { status: response.status, json: (await response.json()) as { data?: unknown } };
  }

  async data<T>(server: ShopServer, method: string, args: unknown[] = []): Promise<T> {
    const reply = await this.call(server, method, args);
    if (reply.status !== 200) {
      throw new Error(`${method} answered ${reply.status}: ${JSON.stringify(reply.json)}`);
    }
    return reply.json.data as T;
  }

  /** A copy of this browser's cookies (a cookie kept to be replayed). */
  clone(): Browser {
    const copy = new Browser();
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    return copy;
  }

  async customer(server: ShopServer): Promise<number | null> {
    return (await this.data<CurrentCustomer | null>(server, 'getCustomers'))?.id ?? null;
  }
}

describe.runIf(redisAvailable())('two shop servers sharing one Redis', () => {
  let redis: TestRedis | undefined;
  let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
  let sandboxDir = '';
  let one: ShopServer | undefined;
  let two: ShopServer | undefined;
  const servers = () => {
    if (one === undefined || two === undefined) throw new Error('servers not started');
    return [one, two] as const;
  };

  beforeAll(async () => {
    requireBuild();
    redis = await startRedis();
    sandboxDir = mkdtempSync(path.join(tmpdir(), 'two-servers-'));
    const [portOne, portTwo] = [await freePort(), await freePort()];
    // The build talks to the sandbox on SANDBOX_PORT: a fresh one (same seed) is started there,
    // with racing cart writes as upstream has them.
    sandbox = await startSandbox({
      port: SANDBOX_PORT,
      dataDir: sandboxDir,
      siteUrl: `http://127.0.0.1:${portOne}`,
      cartWriteLatencyMs: 20,
    });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      UPSTREAM: 'sandbox',
      SANDBOX_PORT: String(SANDBOX_PORT),
      SANDBOX_DIR: sandboxDir,
      DIST_DIR,
      HOST: '127.0.0.1',
      SESSION_SECRET,
      REDIS_URL: redis.url,
    };
    [one, two] = await Promise.all([startShop(portOne, env), startShop(portTwo, env)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stopShop(one), stopShop(two)]);
    await sandbox?.close();
    await redis?.stop();
    if (sandboxDir !== '') rmSync(sandboxDir, { recursive: true, force: true });
  });

  test('20 concurrent adds to one cart, spread over both servers, give quantity 20', async () => {
    const [a, b] = servers();
    const browser = new Browser();
    const admin = {
      admin: async (method: string, adminPath: string) => {
        const response = await fetch(`${sandbox?.url ?? ''}/stores/sandbox/${adminPath}`, {
          method,
          headers: { 'X-Auth-Token': 'sandbox-token', Accept: 'application/json' },
        });
        return { status: response.status, json: (await response.json()) as unknown };
      },
    };
    const [line, other] = [await someVariant(admin, 0), await someVariant(admin, 1)];
    const cart = await browser.data<Cart>(a, 'createCart', [
      { lineItems: [{ ...other, quantity: 1 }] },
    ]);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        browser.call(i % 2 === 0 ? a : b, 'addCartItems', [
          { cartId: cart.id, lineItems: [{ ...line, quantity: 1 }] },
        ]),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const final = await browser.data<Cart>(b, 'getCart', [{ id: cart.id }]);
    const quantity = (productId: number) =>
      final.lineItems.physicalItems.find((item) => item.productId === productId)?.quantity;
    expect([quantity(other.productId), quantity(line.productId)]).toEqual([1, 20]);
  });

  test('a logout on one server ends the session on the other; the replayed cookie is refused', async () => {
    const [a, b] = servers();
    const browser = new Browser();
    const login = await browser.data<{ customer: { id: number } }>(a, 'loginCustomer', [
      { email: CUSTOMERS.marie.email, password: CUSTOMERS.marie.password },
    ]);
    const kept = browser.clone();
    expect(await kept.customer(b)).toBe(login.customer.id);
    // The account page on the other server lets the session in.
    const cookie = [...kept.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    const page = (server: ShopServer) =>
      fetch(`${server.base}/mon-compte/mes-informations`, {
        headers: { Cookie: cookie },
        redirect: 'manual',
      });
    expect((await page(b)).status).toBe(200);

    expect(await browser.call(a, 'logoutCustomer')).toMatchObject({ status: 200 });
    expect(await kept.customer(b)).toBeNull();
    expect(await kept.customer(a)).toBeNull();
    const refused = await page(b);
    expect([refused.status, refused.headers.get('location')]).toEqual([302, '/connexion']);
  });

  test('another site cannot log the shopper out: its GET asks, its POST is refused', async () => {
    const [a, b] = servers();
    const browser = new Browser();
    await browser.data(a, 'loginCustomer', [
      { email: CUSTOMERS.reseller.email, password: CUSTOMERS.reseller.password },
    ]);
    const cookie = [...browser.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    const logout = (server: ShopServer, method: string, headers: Record<string, string>) =>
      fetch(`${server.base}/deconnexion`, {
        method,
        headers: { Cookie: cookie, ...headers },
        redirect: 'manual',
      });
    for (const site of ['cross-site', 'same-site', undefined]) {
      const reply = await logout(b, 'GET', site === undefined ? {} : { 'Sec-Fetch-Site': site });
      const html = await reply.text();
      expect([reply.status, reply.headers.getSetCookie()]).toEqual([200, []]);
      expect(html).toContain(t('logout.confirm'));
      expect(html).toMatch(/<form method="post" action="\/deconnexion"/);
    }
    const crossSitePost = await logout(b, 'POST', {
      'Sec-Fetch-Site': 'cross-site',
      Origin: 'https://evil.example',
    });
    expect(crossSitePost.status).toBe(403);
    expect(await browser.customer(a)).not.toBeNull();

    // The confirmation's own POST (same origin) logs out, on every server.
    const confirmed = await logout(b, 'POST', { 'Sec-Fetch-Site': 'same-origin', Origin: b.base });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain(t('logout.done'));
    expect(confirmed.headers.getSetCookie()).toContain(
      'session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax',
    );
    expect(await browser.customer(a)).toBeNull();
  });

  test('/deconnexion typed or bookmarked (Sec-Fetch-Site: none) logs out at once, on every server', async () => {
    const [a, b] = servers();
    const browser = new Browser();
    await browser.data(a, 'loginCustomer', [
      { email: CUSTOMERS.reseller.email, password: CUSTOMERS.reseller.password },
    ]);
    const cookie = [...browser.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    const typed = await fetch(`${b.base}/deconnexion`, {
      headers: { Cookie: cookie, 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'navigate' },
      redirect: 'manual',
    });
    expect(typed.status).toBe(200);
    const html = await typed.text();
    expect(html).toContain(t('logout.done'));
    expect(html).not.toContain(t('logout.confirm'));
    expect(typed.headers.getSetCookie()).toContain(
      'session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax',
    );
    expect(await browser.customer(a)).toBeNull();

    // The account menu's link (same-origin) still logs out at once too.
    const again = new Browser();
    await again.data(b, 'loginCustomer', [
      { email: CUSTOMERS.reseller.email, password: CUSTOMERS.reseller.password },
    ]);
    const linked = await fetch(`${a.base}/deconnexion`, {
      headers: {
        Cookie: [...again.cookies].map(([n, v]) => `${n}=${v}`).join('; '),
        'Sec-Fetch-Site': 'same-origin',
      },
      redirect: 'manual',
    });
    expect(await linked.text()).toContain(t('logout.done'));
    expect(await again.customer(b)).toBeNull();
  });

  test('a reset link used on one server is refused on the other', async () => {
    const [a, b] = servers();
    const email = `deux.serveurs.${Date.now()}@example.fr`;
    const browser = new Browser();
    await browser.data(a, 'createCustomer', [
      { email, firstName: 'Léa', lastName: 'Deux', password: 'Ancien123', createAccount: true },
    ]);
    await new Browser().data(b, 'generateOttAndToken', [{ email }]);
    const mailbox = `${sandbox?.url ?? ''}/brevo/v3/smtp/emails`;
    const headers = { 'api-key': BREVO_KEY };
    const listed = (await (
      await fetch(`${mailbox}?email=${encodeURIComponent(email)}&sort=desc`, { headers })
    ).json()) as { transactionalEmails: { uuid: string }[] };
    const mail = (await (
      await fetch(`${mailbox}/${listed.transactionalEmails[0]?.uuid ?? ''}`, { headers })
    ).json()) as { body: string };
    const href = /href="([^"]+)"/.exec(mail.body)?.[1]?.replaceAll('&amp;', '&') ?? '';
    const resetToken = new URL(href).searchParams.get('resetToken') ?? '';

    expect(
      await new Browser().call(a, 'sendResetPasswordEmail', [
        { password: 'Nouveau456', resetToken },
      ]),
    ).toMatchObject({ status: 200, json: { data: { email } } });
    expect(
      await new Browser().call(b, 'sendResetPasswordEmail', [
        { password: 'Pirate789', resetToken },
      ]),
    ).toMatchObject({ status: 400, json: { message: 'Invalid or expired reset link' } });
    // The session from before the reset ended on both servers; the new password works.
    expect(await browser.customer(b)).toBeNull();
    const again = new Browser();
    await again.data(b, 'loginCustomer', [{ email, password: 'Nouveau456' }]);
    expect(await again.customer(a)).not.toBeNull();
  });

  test('login limits count the attempts made on both servers', async () => {
    const [a, b] = servers();
    const email = CUSTOMERS.reseller.email;
    // Five failures, spread over both: each server alone saw fewer than its free attempts.
    for (let i = 0; i < 5; i += 1) {
      const reply = await new Browser().call(i % 2 === 0 ? a : b, 'loginCustomer', [
        { email, password: 'Mauvais123' },
      ]);
      expect(reply.status).toBe(401);
    }
    // Four more at once, two on each server, with the right password: on shared counts they are
    // the 6th to 9th attempts, so one at most goes through and the others must wait; counted
    // per server (3 and 2 so far) all four would be let through.
    const racers = [a, b, a, b];
    const replies = await Promise.all(
      racers.map((server) =>
        new Browser().call(server, 'loginCustomer', [
          { email, password: CUSTOMERS.reseller.password },
        ]),
      ),
    );
    const refused = replies.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(3);
    expect(new Set(racers.filter((_, i) => replies[i]?.status === 429))).toEqual(new Set([a, b]));
  });
});
