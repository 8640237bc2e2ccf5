/**
 * The shop API with its account services over real HTTP, against a fresh sandbox: a node:http
 * server runs the client middleware (`with-client.ts`: ClientInfo behind `trustedProxies`,
 * the cross-site check) and bridges to `handleApiCall` with its `clientInfo`, the way the
 * Astro route does; `shopper()` gives a browser-like caller with its own cookie jar, sending
 * same-origin JSON calls by default.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createContext, sequence } from 'astro/middleware';
import type { Features } from '../../../src/lib/features.ts';
import { bigcommerceService } from '../../../src/shop/api/bigcommerce.ts';
import { brevoService } from '../../../src/shop/api/brevo-methods.ts';
import { createAccountServices, type AccountServices } from '../../../src/shop/api/context.ts';
import { handleApiCall, type ApiServices } from '../../../src/shop/api/handle.ts';
import { createBigCommerceClient } from '../../../src/shop/connectors/bigcommerce/index.ts';
import {
  createBrevoClient,
  sendTransactionalEmail,
} from '../../../src/shop/connectors/brevo/index.ts';
import {
  cartLinkKey,
  explainCartLink,
  resolveCartRedirect,
} from '../../../src/shop/carts/cart-redirect.ts';
import { createCheckoutHolders } from '../../../src/shop/carts/checkout-holder.ts';
import { parseTrustedProxies } from '../../../src/shop/auth/client.ts';
import { ReplyCookies } from '../../../src/shop/auth/cookies.ts';
import {
  createWithCartRedirect,
  createWithClient,
  withCanonicalPath,
} from '../../../src/shop/middleware/index.ts';
import { createResetTokens } from '../../../src/shop/auth/password-reset.ts';
import { createSessionManager } from '../../../src/shop/auth/session.ts';
import { createMemoryStore } from '../../../src/shop/state/memory.ts';
import type { SharedStore } from '../../../src/shop/state/types.ts';
import { createAccountThrottle } from '../../../src/shop/throttle/throttle.ts';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';

export const SESSION_SECRET = 'integration-tests-session-secret-0123456789';
export const CLIENT_ID = 'sandbox-client';
export const CLIENT_SECRET = 'sandbox-client-secret';
export const BREVO_KEY = 'sandbox-brevo-key';
/**
 * Header the bridge takes as the TCP peer's address instead of the socket's (127.0.0.1): the
 * tests' stand-in for shoppers on other addresses, or for a load balancer.
 */
export const CLIENT_IP_HEADER = 'x-test-client-ip';

export interface ShopApi {
  sandbox: TestSandbox;
  /** `http://127.0.0.1:PORT` of the bridge. */
  base: string;
  account: AccountServices;
  /** Upstream BigCommerce calls made since the last `clearUpstream()`: method and URL. */
  upstream: { method: string; url: string }[];
  clearUpstream(): void;
  /** A new caller with an empty cookie jar. */
  shopper(options?: { ip?: string }): Shopper;
  /** BigCommerce API of the sandbox, directly (`v3/carts/...`), for set-up and checks. */
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }>;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  json: { data?: unknown; message?: string; statusCode?: number };
  setCookies: string[];
  /** The other headers of the reply (`Retry-After`...). */
  headers: Headers;
}

export interface CallOptions {
  /** Replaces the default same-origin headers (Origin of the bridge, JSON content type). */
  headers?: Record<string, string>;
  /** A raw body instead of the JSON of the arguments. */
  body?: string;
}

export interface Shopper {
  readonly cookies: Map<string, string>;
  /** A method of the bigcommerce service, or `service.method` (`brevo.subscribe`). */
  call(method: string, args?: unknown[], options?: CallOptions): Promise<Reply>;
  /** `call`, expecting 200: the data. */
  data<T>(method: string, args?: unknown[]): Promise<T>;
  /** Logs in with the sandbox's credentials; returns the customer id. */
  login(email: string, password: string): Promise<number>;
  /** GETs a page of the bridge (middleware: canonical path, redirect-to-cart) with the jar. */
  visit(path: string): Promise<{ status: number; location: string | null; text: string }>;
}

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  });
}

export interface ShopApiOptions {
  account?: Partial<AccountServices>;
  /** The shared state (default: a fresh memory store); closed by `close()`. */
  store?: SharedStore;
  /** Another bridge's sandbox to share (a second server copy); not closed by `close()`. */
  sandbox?: TestSandbox;
  /** `TRUSTED_PROXIES` of the bridge (default: none, every forwarded header is ignored). */
  trustedProxies?: string;
  /** The feature flags (default: every feature on). */
  features?: Features;
  /** Per-attempt timeout of the BigCommerce client, ms (default the client's, 10 s). */
  upstreamTimeoutMs?: number;
}

export async function startShopApi(options: ShopApiOptions = {}): Promise<ShopApi> {
  const ownSandbox = options.sandbox === undefined;
  const sandbox = options.sandbox ?? (await startTestSandbox());
  const store = options.store ?? createMemoryStore();
  const upstream: { method: string; url: string }[] = [];
  const client = createBigCommerceClient({
    apiUrl: sandbox.url,
    storeHash: sandbox.storeHash,
    accessToken: sandbox.token,
    channelId: 1,
    ...(options.upstreamTimeoutMs === undefined ? {} : { timeout: options.upstreamTimeoutMs }),
    fetch: (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      upstream.push({ method: request.method, url: request.url });
      return fetch(request);
    },
  });
  const brevo = createBrevoClient({ apiUrl: `${sandbox.url}/brevo/v3`, apiKey: BREVO_KEY });
  const account = createAccountServices({
    store,
    sessions: createSessionManager({ secret: SESSION_SECRET, store, resellerArea: true }),
    resetTokens: createResetTokens({ secret: SESSION_SECRET, store }),
    sendMail: (email) => sendTransactionalEmail(brevo, email),
    mailSender: { email: 'contact@literie-exemple.fr', name: 'Literie' },
    shopContact: { email: 'contact@literie-exemple.fr', phone: '01 23 45 67 89' },
    linkOrigin: (request) => new URL(request.url).origin,
    throttle: createAccountThrottle({ store, secret: SESSION_SECRET }),
    cartLinkKey: cartLinkKey(SESSION_SECRET),
    checkouts: createCheckoutHolders({ secret: SESSION_SECRET, store }),
    customerLogin: {
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      storeHash: sandbox.storeHash,
    },
    ...options.account,
  });
  const services: ApiServices = {
    bigcommerce: bigcommerceService(() => client, account, options.features),
    brevo: brevoService({ brevo: () => brevo, commerce: () => client, account }),
  };
  const withClient = createWithClient({
    trustedProxies: parseTrustedProxies(options.trustedProxies),
  });
  // What src/shop/middleware/on-request.ts does with a page request that matters to carts: one spelling per
  // page, then redirect-to-cart (shop-minted tokens only; the opener holds the checkout).
  const pages = sequence(
    withClient,
    withCanonicalPath,
    createWithCartRedirect({
      resolve: (_request, query) => resolveCartRedirect(client, account.cartLinkKey, query),
      cookieMaxAge: 3600,
      adopt: async (request, cartId, secure) => {
        const cookies = new ReplyCookies({ secure });
        await account.checkouts.handOver(request, cookies, cartId);
        return cookies.headers();
      },
      opened: (cartId) => account.sentCarts.advance(cartId, { kind: 'opened' }),
      explain: (_request, query) =>
        explainCartLink(client, account.cartLinkKey, query, (cartId) =>
          account.sentCarts.get(cartId),
        ),
    }),
  );

  const server: Server = createServer((req, res) => {
    const request = toRequest(req);
    const match = /^\/api\/([^/]+)\/([^/]+)$/.exec(new URL(request.url).pathname);
    const ip = req.headers[CLIENT_IP_HEADER];
    // What Astro's node adapter gives the middleware: the TCP peer as `clientAddress`.
    const peer = typeof ip === 'string' ? ip : req.socket.remoteAddress;
    const context = createContext({
      request,
      defaultLocale: 'fr',
      ...(peer === undefined ? {} : { clientAddress: peer }),
    });
    const reply = Promise.resolve(
      match
        ? withClient(context, () =>
            handleApiCall(request, { service: match[1] ?? '', method: match[2] ?? '' }, services, {
              clientInfo: context.locals.clientInfo,
            }),
          )
        : // A page: the middleware's canonical path and redirect-to-cart, then `page {path}`.
          // A rewrite (a refused cart link: `/vue/lien-panier`) names the route it renders,
          // and the refusal it was handed.
          pages(context, (rewrite) =>
            Promise.resolve(
              new Response(
                `page ${typeof rewrite === 'string' ? rewrite : context.url.pathname}${
                  context.locals.cartLinkRefusal === undefined
                    ? ''
                    : ` ${JSON.stringify(context.locals.cartLinkRefusal)}`
                }`,
              ),
            ),
          ),
    ).then((response) => response ?? new Response('no response', { status: 500 }));
    void reply.then(async (response) => {
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of response.headers) {
        if (name !== 'set-cookie') headers[name] = value;
      }
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) headers['set-cookie'] = cookies;
      res.writeHead(response.status, headers);
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function send(
    path: string,
    payload: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; body: string; setCookies: string[]; headers: Headers }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        `${base}${path}`,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Length': String(Buffer.byteLength(payload)) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (name === 'set-cookie' || value === undefined) continue;
              headers.set(name, Array.isArray(value) ? value.join(', ') : value);
            }
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString(),
              setCookies: res.headers['set-cookie'] ?? [],
              headers,
            });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  function shopper(shopperOptions: { ip?: string } = {}): Shopper {
    const cookies = new Map<string, string>();
    const keep = (setCookies: readonly string[]) => {
      for (const cookie of setCookies) {
        const [pair = '', ...attributes] = cookie.split(';').map((p) => p.trim());
        const at = pair.indexOf('=');
        const name = pair.slice(0, at);
        const deleted = attributes.some((a) => /^max-age=0$/i.test(a));
        if (deleted) cookies.delete(name);
        else cookies.set(name, pair.slice(at + 1));
      }
    };
    const self: Shopper = {
      cookies,
      async call(method, args = [], callOptions = {}) {
        const headers: Record<string, string> = callOptions.headers ?? {
          'Content-Type': 'application/json',
          Origin: base,
        };
        if (cookies.size > 0) {
          headers.Cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
        }
        if (shopperOptions.ip !== undefined) headers[CLIENT_IP_HEADER] = shopperOptions.ip;
        // `method` of the bigcommerce service, or `service.method` (`brevo.subscribe`).
        const path = method.includes('.') ? method.replace('.', '/') : `bigcommerce/${method}`;
        const reply = await send(`/api/${path}`, callOptions.body ?? JSON.stringify(args), headers);
        keep(reply.setCookies);
        return {
          status: reply.status,
          json: JSON.parse(reply.body) as Reply['json'],
          setCookies: reply.setCookies,
          headers: reply.headers,
        };
      },
      async data<T>(method: string, args: unknown[] = []) {
        const reply = await self.call(method, args);
        if (reply.status !== 200) {
          throw new Error(`${method} answered ${reply.status}: ${JSON.stringify(reply.json)}`);
        }
        return reply.json.data as T;
      },
      async visit(path) {
        const headers: Record<string, string> = {};
        if (cookies.size > 0) {
          headers.Cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
        }
        const response = await fetch(`${base}${path}`, { redirect: 'manual', headers });
        keep(response.headers.getSetCookie());
        return {
          status: response.status,
          location: response.headers.get('location'),
          text: await response.text(),
        };
      },
      async login(email, password) {
        const data = await self.data<{ customer: { id: number } }>('loginCustomer', [
          { email, password },
        ]);
        return data.customer.id;
      },
    };
    return self;
  }

  return {
    sandbox,
    base,
    account,
    upstream,
    clearUpstream: () => upstream.splice(0),
    shopper,
    async admin(method, path, body) {
      const response = await fetch(`${sandbox.url}/stores/${sandbox.storeHash}/${path}`, {
        method,
        headers: {
          'X-Auth-Token': sandbox.token,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return {
        status: response.status,
        json: text === '' ? undefined : (JSON.parse(text) as unknown),
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
      await store.close();
      if (ownSandbox) await sandbox.close();
    },
  };
}

/** A purchasable product line of the seed: product and variant ids. */
export async function someVariant(
  api: Pick<ShopApi, 'admin'>,
  index = 0,
): Promise<{ productId: number; variantId: number }> {
  const reply = await api.admin(
    'GET',
    'v3/catalog/products?is_visible=true&include=variants&limit=50',
  );
  const products = (
    reply.json as {
      data: {
        id: number;
        inventory_tracking: string;
        inventory_level: number;
        variants: { id: number; purchasing_disabled: boolean; inventory_level: number }[];
      }[];
    }
  ).data;
  const lines = products.flatMap((p) =>
    p.variants
      .filter(
        (v) =>
          !v.purchasing_disabled && (p.inventory_tracking !== 'variant' || v.inventory_level >= 25),
      )
      .filter(() => p.inventory_tracking !== 'product' || p.inventory_level >= 25)
      .slice(0, 1)
      .map((v) => ({ productId: p.id, variantId: v.id })),
  );
  const line = lines[index];
  if (line === undefined) throw new Error('No purchasable variant in the seed');
  return line;
}
