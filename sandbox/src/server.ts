/**
 * The BigCommerce sandbox: a local server answering the subset of the REST API the shop uses,
 * at the same paths (`/stores/{storeHash}/v3/...`, `/v2/...`), on node:sqlite with a seeded
 * French catalogue. Run directly (`npm run sandbox`) or start it from code with startSandbox().
 */
import { readFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import {
  CONTENTFUL_DEFAULTS,
  ctfError,
  ctfFaultError,
  type ContentfulConfig,
} from './contentful-store.ts';
import { openDatabase, type SeedReport } from './db.ts';
import {
  FAULTS_PATH,
  faultsFromEnv,
  faultTitle,
  faultView,
  Faults,
  type Fault,
  type FaultSpec,
} from './faults.ts';
import {
  BODY_LIMIT,
  InvalidBody,
  json,
  noContent,
  Query,
  QueryError,
  queryErrorReply,
  send,
  v2Error,
  v3Error,
  type Reply,
} from './http.ts';
import { ensureImages } from './images.ts';
import * as brevo from './routes/brevo.ts';
import * as brevoContacts from './routes/brevo-contacts.ts';
import * as carts from './routes/carts.ts';
import * as catalog from './routes/catalog.ts';
import * as catalogWrites from './routes/catalog-writes.ts';
import { handleDelivery, serveAsset } from './routes/contentful.ts';
import { handleManagement } from './routes/contentful-management.ts';
import type { RouteContext, SandboxConfig } from './routes/context.ts';
import * as customers from './routes/customers.ts';
import * as hooks from './routes/hooks.ts';
import * as orders from './routes/orders.ts';
import * as reviews from './routes/reviews.ts';
import * as wishlists from './routes/wishlists.ts';
import { handleGuaranteedReviews } from './routes/guaranteed-reviews.ts';
import * as store from './routes/store.ts';
import * as storefront from './routes/storefront.ts';
import { Webhooks } from './webhooks.ts';

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Where the database and pictures live; default `.sandbox`. */
  dataDir?: string;
  /** Expected `X-Auth-Token`; default 'sandbox-token'. */
  token?: string;
  /** Store hash of the URLs; default 'sandbox'. */
  storeHash?: string;
  /** Catalogue size; default the hand-written seed. Larger numbers add generated products. */
  products?: number;
  /** Log the start line (the CLI does). */
  log?: boolean;
  /** Seed value of the channel site URL (where the hosted checkout sends shoppers back); default `http://localhost:4321`. */
  siteUrl?: string;
  /** BigCommerce app client id (`iss` of customer login JWTs); default 'sandbox-client'. */
  clientId?: string;
  /**
   * Other API accounts (apps) of the store, each with its own `X-Auth-Token` and client id:
   * metafields are their writer's (`permission_set`: another app's `app_only` field is hidden).
   */
  apps?: readonly { token: string; clientId: string }[];
  /** BigCommerce app client secret (signs customer login JWTs); default 'sandbox-client-secret'. */
  clientSecret?: string;
  /** Brevo `api-key`; default 'sandbox-brevo-key'. */
  brevoKey?: string;
  /**
   * Milliseconds a cart write waits between reading the cart and writing it back (default 15;
   * 0 allowed). Concurrent writes to one cart then lose updates, as they can upstream.
   */
  cartWriteLatencyMs?: number;
  /** Faults in force from the start (see faults.ts and the README); changed at run time on `/__sandbox/faults`. */
  faults?: readonly FaultSpec[];
  /** Adds the hostile catalogue (seed/hostile.ts: XSS payloads in a product, a category, a banner); default false. */
  hostile?: boolean;
  /** The Contentful space's id, environment and tokens; defaults in contentful-store.ts (`sandbox`, `master`, `sandbox-cda-token`, `sandbox-cma-token`). */
  contentful?: Partial<typeof CONTENTFUL_DEFAULTS>;
  /** Waits before retrying a failed webhook delivery; default [500, 2000] (three attempts). */
  webhookRetryDelaysMs?: readonly number[];
}

export interface Sandbox {
  /** `http://127.0.0.1:PORT`; the API base is `${url}/stores/${storeHash}`. */
  url: string;
  storeHash: string;
  token: string;
  clientId: string;
  clientSecret: string;
  brevoKey: string;
  seed: SeedReport;
  /** The fault rules in force (the admin endpoint `/__sandbox/faults` changes the same). */
  faults: Faults;
  /** The Contentful emulation: Delivery API base `${url}/contentful`, management `${url}/contentful-management`. */
  contentful: {
    spaceId: string;
    environment: string;
    deliveryToken: string;
    managementToken: string;
  };
  close(): Promise<void>;
}

type Handler = (ctx: RouteContext) => Reply | Promise<Reply>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Family = 'v2' | 'v3' | 'brevo' | 'contentful' | 'guaranteed-reviews';

interface Route {
  family: Family;
  method: Method;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

/** `{id}` matches digits, `{id*}` any one path segment (UUIDs, e-mails). */
function route(family: Family, method: Method, path: string, handler: Handler): Route {
  const keys: string[] = [];
  const source = path.replace(/\{(\w+)(\*?)\}/g, (_, key: string, any: string) => {
    keys.push(key);
    return any ? '([^/]+)' : '(\\d+)';
  });
  return { family, method, pattern: new RegExp(`^${source}/?$`), keys, handler };
}

/** Routes in match order (literal segments before parameters). */
const ROUTES: Route[] = [
  route('v3', 'GET', '/catalog/products', catalog.listProducts),
  route('v3', 'POST', '/catalog/products', catalogWrites.createProduct),
  route('v3', 'GET', '/catalog/products/{id}', catalog.getProduct),
  route('v3', 'PUT', '/catalog/products/{id}', catalogWrites.updateProduct),
  route('v3', 'DELETE', '/catalog/products/{id}', catalogWrites.deleteProduct),
  route('v3', 'GET', '/catalog/products/{id}/reviews', reviews.listReviews),
  route('v3', 'POST', '/catalog/products/{id}/reviews', reviews.createReview),
  route('v3', 'GET', '/catalog/categories', catalog.listCategories),
  route('v3', 'GET', '/catalog/categories/tree', catalog.categoryTree),
  route('v3', 'GET', '/catalog/categories/metafields', catalog.allCategoryMetafields),
  route('v3', 'GET', '/catalog/categories/{id}', catalog.getCategory),
  route('v3', 'PUT', '/catalog/categories/{id}', catalogWrites.updateCategory),
  route('v3', 'GET', '/catalog/categories/{id}/metafields', catalog.categoryMetafields),
  route('v3', 'GET', '/catalog/brands', catalog.listBrands),
  route('v3', 'GET', '/catalog/brands/{id}', catalog.getBrand),
  route('v3', 'PUT', '/catalog/brands/{id}', catalogWrites.updateBrand),
  route('v3', 'GET', '/hooks', hooks.listHooks),
  route('v3', 'POST', '/hooks', hooks.createHook),
  route('v3', 'GET', '/hooks/{id}', hooks.getHook),
  route('v3', 'PUT', '/hooks/{id}', hooks.updateHook),
  route('v3', 'DELETE', '/hooks/{id}', hooks.deleteHook),
  route('v3', 'GET', '/channels/{id}', store.getChannel),
  route('v3', 'GET', '/channels/{id}/site', store.getChannelSite),
  route('v3', 'PUT', '/channels/{id}/site', store.putChannelSite),
  route('v3', 'GET', '/storefront/redirects', store.listRedirects),
  route('v3', 'POST', '/carts', carts.createCart),
  route('v3', 'GET', '/carts/{cartId*}', carts.getCart),
  route('v3', 'PUT', '/carts/{cartId*}', carts.updateCart),
  route('v3', 'DELETE', '/carts/{cartId*}', carts.deleteCart),
  route('v3', 'POST', '/carts/{cartId*}/items', carts.addItems),
  route('v3', 'PUT', '/carts/{cartId*}/items/{itemId*}', carts.updateItem),
  route('v3', 'DELETE', '/carts/{cartId*}/items/{itemId*}', carts.deleteItem),
  route('v3', 'POST', '/carts/{cartId*}/redirect_urls', carts.createRedirectUrls),
  route('v3', 'GET', '/carts/{cartId*}/metafields', carts.listMetafields),
  route('v3', 'POST', '/carts/{cartId*}/metafields', carts.createMetafield),
  route('v3', 'GET', '/carts/{cartId*}/metafields/{metafieldId}', carts.getMetafield),
  route('v3', 'PUT', '/carts/{cartId*}/metafields/{metafieldId}', carts.updateMetafield),
  route('v3', 'DELETE', '/carts/{cartId*}/metafields/{metafieldId}', carts.deleteMetafield),
  route('v3', 'GET', '/checkouts/{checkoutId*}', carts.getCheckout),
  route('v3', 'POST', '/checkouts/{checkoutId*}/billing-address', carts.addBillingAddress),
  route(
    'v3',
    'PUT',
    '/checkouts/{checkoutId*}/billing-address/{addressId}',
    carts.updateBillingAddress,
  ),
  route('v3', 'GET', '/wishlists', wishlists.listWishlists),
  route('v3', 'POST', '/wishlists', wishlists.createWishlist),
  route('v3', 'GET', '/wishlists/{id}', wishlists.getWishlist),
  route('v3', 'PUT', '/wishlists/{id}', wishlists.updateWishlist),
  route('v3', 'DELETE', '/wishlists/{id}', wishlists.deleteWishlist),
  route('v3', 'POST', '/wishlists/{id}/items', wishlists.addItems),
  route('v3', 'DELETE', '/wishlists/{id}/items/{itemId}', wishlists.deleteItem),
  route('v3', 'GET', '/customers', customers.listCustomers),
  route('v3', 'POST', '/customers', customers.createCustomers),
  route('v3', 'PUT', '/customers', customers.updateCustomers),
  route('v3', 'DELETE', '/customers', customers.deleteCustomers),
  route('v3', 'POST', '/customers/validate-credentials', customers.validateCredentials),
  route('v3', 'GET', '/customers/form-field-values', customers.listFormFieldValues),
  route('v3', 'PUT', '/customers/form-field-values', customers.upsertFormFieldValues),
  route('v3', 'GET', '/customers/addresses', customers.listAddresses),
  route('v3', 'POST', '/customers/addresses', customers.createAddresses),
  route('v3', 'PUT', '/customers/addresses', customers.updateAddresses),
  route('v3', 'DELETE', '/customers/addresses', customers.deleteAddresses),
  route('v2', 'GET', '/store', store.getStore),
  route('v2', 'GET', '/banners', store.listBanners),
  route('v2', 'GET', '/banners/{id}', store.getBanner),
  route('v2', 'GET', '/orders', orders.listOrders),
  route('v2', 'GET', '/orders/{id}', orders.getOrder),
  route('v2', 'PUT', '/orders/{id}', orders.updateOrder),
  route('v2', 'GET', '/orders/{id}/products', orders.listOrderProducts),
  route('v2', 'GET', '/orders/{id}/shipping_addresses', orders.listShippingAddresses),
  route('v2', 'GET', '/orders/{id}/shipments', orders.listShipments),
  route('brevo', 'POST', '/smtp/email', brevo.sendEmail),
  route('brevo', 'GET', '/smtp/emails', brevo.listEmails),
  route('brevo', 'GET', '/smtp/emails/{uuid*}', brevo.getEmail),
  route('brevo', 'POST', '/contacts', brevoContacts.createContact),
  route('brevo', 'GET', '/contacts/lists/{listId}', brevoContacts.getList),
  route('brevo', 'POST', '/contacts/lists/{listId}/contacts/add', brevoContacts.addToList),
  route('brevo', 'POST', '/contacts/lists/{listId}/contacts/remove', brevoContacts.removeFromList),
  route('brevo', 'GET', '/contacts/{identifier*}', brevoContacts.getContact),
  route('brevo', 'DELETE', '/contacts/{identifier*}', brevoContacts.deleteContact),
];

const IMAGE_PATH = /^\/images\/(\d+x\d+)\/([a-z0-9-]+\.jpg)$/;

interface ServerState {
  db: DatabaseSync;
  config: SandboxConfig;
  imagesDir: string;
  faults: Faults;
  contentful: ContentfulConfig;
}

async function serveImage(path: string, state: ServerState): Promise<Reply> {
  const match = IMAGE_PATH.exec(path);
  if (!match) return v3Error(404, 'Not Found');
  try {
    const body = await readFile(join(state.imagesDir, match[1] ?? '', match[2] ?? ''));
    return {
      status: 200,
      body,
      headers: {
        'Content-Type': 'image/jpeg',
        'Cache-Control': 'public, max-age=31536000, immutable',
      },
    };
  } catch {
    return v3Error(404, 'Not Found');
  }
}

/**
 * Reads the request body; undefined when it is larger than BODY_LIMIT (the rest is still
 * read and dropped, so the connection stays usable).
 */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size <= BODY_LIMIT) chunks.push(chunk);
  }
  return size > BODY_LIMIT ? undefined : Buffer.concat(chunks).toString('utf8');
}

function familyError(family: Family, status: number, message: string): Reply {
  if (family === 'v2') return v2Error(status, message);
  if (family === 'contentful') return ctfFaultError(status, message);
  if (family === 'guaranteed-reviews') return json(status, { error: message });
  if (family === 'brevo')
    return brevo.brevoError(
      status,
      status === 404 ? 'document_not_found' : 'invalid_parameter',
      message,
    );
  return v3Error(status, message);
}

/** The API family a path belongs to, for the shape of an injected error. */
function familyOf(path: string): Family {
  if (path.startsWith('/brevo/v3/')) return 'brevo';
  if (path.startsWith('/guaranteed-reviews/')) return 'guaranteed-reviews';
  if (path.startsWith('/contentful/') || path.startsWith('/contentful-management/'))
    return 'contentful';
  return /^\/stores\/[^/]+\/v2\//.test(path) ? 'v2' : 'v3';
}

/**
 * The admin endpoint of fault injection (same `X-Auth-Token` as the API): GET lists the rules,
 * POST adds one rule or an array of them (201 with the rules as stored), DELETE removes every
 * rule, DELETE `/{id}` one.
 */
async function faultsAdmin(req: IncomingMessage, state: ServerState, path: string): Promise<Reply> {
  if (req.headers['x-auth-token'] !== state.config.token) {
    return v3Error(401, 'No valid credentials were found in this request.');
  }
  const rest = path.slice(FAULTS_PATH.length);
  const method = req.method ?? 'GET';
  if (rest === '' || rest === '/') {
    if (method === 'GET' || method === 'HEAD') {
      return json(200, { data: state.faults.list().map(faultView) });
    }
    if (method === 'DELETE') {
      state.faults.clear();
      return noContent();
    }
    if (method === 'POST') {
      const raw = await readBody(req);
      if (raw === undefined) return v3Error(413, 'The request body is too large.');
      let body: unknown;
      try {
        body = JSON.parse(raw) as unknown;
      } catch {
        return v3Error(400, 'The request body is not valid JSON.');
      }
      try {
        const added = state.faults.add(Array.isArray(body) ? body : [body]);
        return json(201, { data: added.map(faultView) });
      } catch (caught) {
        if (caught instanceof InvalidBody) return v3Error(422, caught.message, caught.errors);
        throw caught;
      }
    }
    return { ...v3Error(405, 'Method Not Allowed'), headers: { Allow: 'GET, POST, DELETE' } };
  }
  const id = /^\/(\d{1,9})$/.exec(rest)?.[1];
  if (id === undefined) return v3Error(404, 'The requested resource was not found.');
  if (method !== 'DELETE') {
    return { ...v3Error(405, 'Method Not Allowed'), headers: { Allow: 'DELETE' } };
  }
  return state.faults.clear(Number(id))
    ? noContent()
    : v3Error(404, 'The requested resource was not found.');
}

const DELIVERIES_PATH = '/__sandbox/webhook-deliveries';

/**
 * The webhook delivery log (tests): GET lists it (`?source=contentful|bigcommerce`), DELETE
 * clears it. Takes the API's `X-Auth-Token` or the Contentful management bearer token.
 */
function deliveriesAdmin(req: IncomingMessage, state: ServerState, url: URL): Reply {
  if (
    req.headers['x-auth-token'] !== state.config.token &&
    req.headers.authorization !== `Bearer ${state.contentful.managementToken}`
  ) {
    return v3Error(401, 'No valid credentials were found in this request.');
  }
  if (req.method === 'DELETE') {
    state.config.webhooks.clear();
    return noContent();
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return { ...v3Error(405, 'Method Not Allowed'), headers: { Allow: 'GET, DELETE' } };
  }
  const source = url.searchParams.get('source');
  const list = state.config.webhooks.list(
    source === 'contentful' || source === 'bigcommerce' ? source : undefined,
  );
  return json(200, { data: list });
}

/**
 * Plays a fault: its latency, then a dead upstream (the reply never comes), an injected error,
 * or the normal reply. A request whose client left during the latency is not handled.
 */
async function faulted(
  fault: Fault,
  req: IncomingMessage,
  res: ServerResponse,
  state: ServerState,
  path: string,
  answer: () => Promise<Reply>,
): Promise<Reply | undefined> {
  if (fault.latencyMs > 0) await new Promise((ok) => setTimeout(ok, fault.latencyMs));
  if (res.destroyed || req.socket.destroyed) return undefined;
  if (fault.down !== undefined) {
    state.faults.playDown(fault.down, req, res);
    return undefined;
  }
  if (fault.status !== undefined)
    return familyError(familyOf(path), fault.status, faultTitle(fault.status));
  return answer();
}

/** Finds the route of an API path; 404 or 405 replies when there is none. */
/** The client id of the app an `X-Auth-Token` belongs to, or null for no valid token. */
function appOf(config: SandboxConfig, token: string | string[] | undefined): string | null {
  if (token === config.token) return config.clientId;
  return config.apps.find((app) => app.token === token)?.clientId ?? null;
}

async function dispatch(
  req: IncomingMessage,
  state: ServerState,
  origin: string,
  url: URL,
  family: Family,
  path: string,
  app?: string,
): Promise<Reply> {
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  let pathMatched = false;
  for (const candidate of ROUTES) {
    if (candidate.family !== family) continue;
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (candidate.method !== method) continue;
    const params: Record<string, string> = {};
    candidate.keys.forEach((key, index) => {
      params[key] = decodeURIComponent(match[index + 1] ?? '');
    });
    let rawBody = '';
    let body: unknown = undefined;
    if (method !== 'GET') {
      const read = await readBody(req);
      if (read === undefined) return familyError(family, 413, 'The request body is too large.');
      rawBody = read;
      if (rawBody.trim() !== '') {
        try {
          body = JSON.parse(rawBody) as unknown;
        } catch {
          if (family === 'brevo')
            return brevo.brevoError(400, 'bad_request', 'Invalid JSON in the request body');
          return familyError(family, 400, 'The request body is not valid JSON.');
        }
      }
    }
    const ctx: RouteContext = {
      db: state.db,
      query: new Query(url.searchParams),
      params,
      origin,
      storeHash: state.config.storeHash,
      method,
      body,
      rawBody,
      headers: req.headers,
      config: state.config,
      app: app ?? state.config.clientId,
    };
    try {
      return await candidate.handler(ctx);
    } catch (caught) {
      if (caught instanceof QueryError) {
        return family === 'v2' ? v2Error(400, caught.message) : queryErrorReply(caught);
      }
      if (caught instanceof InvalidBody) {
        if (family === 'v2') return v2Error(caught.status, caught.message);
        if (family === 'brevo') return brevo.brevoError(400, 'invalid_parameter', caught.message);
        return v3Error(caught.status, caught.message, caught.errors);
      }
      throw caught;
    }
  }
  if (pathMatched) return familyError(family, 405, 'Method Not Allowed');
  return familyError(family, 404, 'The requested resource was not found.');
}

async function handle(req: IncomingMessage, state: ServerState, origin: string): Promise<Reply> {
  const url = new URL(req.url ?? '/', origin);
  if (url.pathname.startsWith('/contentful-management/')) {
    return handleManagement({
      db: state.db,
      config: state.contentful,
      webhooks: state.config.webhooks,
      method: req.method ?? 'GET',
      url,
      headers: req.headers,
      readBody: () => readBody(req),
    });
  }
  if (url.pathname.startsWith('/contentful/')) {
    return handleDelivery(
      req.method ?? 'GET',
      url,
      req.headers.authorization,
      state.db,
      state.contentful,
      req.headers.host ?? '127.0.0.1',
    );
  }
  const reviewsReply = handleGuaranteedReviews(state.db, req.method ?? 'GET', url);
  if (reviewsReply !== undefined) return reviewsReply;
  if (url.pathname.startsWith('/brevo/v3/')) {
    if (req.headers['api-key'] !== state.config.brevoKey) {
      return brevo.brevoError(401, 'unauthorized', 'Key not found');
    }
    return dispatch(req, state, origin, url, 'brevo', url.pathname.slice('/brevo/v3'.length));
  }
  const hosted = await storefront.handleHosted(req, url, {
    db: state.db,
    config: state.config,
    origin,
    readBody: () => readBody(req),
  });
  if (hosted) return hosted;
  const prefix = `/stores/${state.config.storeHash}/`;
  if (!url.pathname.startsWith(prefix)) return v3Error(404, 'Not Found');
  const rest = url.pathname.slice(prefix.length - 1);
  const version = rest.startsWith('/v2/') ? 'v2' : rest.startsWith('/v3/') ? 'v3' : undefined;
  if (!version) return v3Error(404, 'Not Found');
  const app = appOf(state.config, req.headers['x-auth-token']);
  if (app === null) {
    return familyError(version, 401, 'No valid credentials were found in this request.');
  }
  return dispatch(req, state, origin, url, version, rest.slice(3), app);
}

/** Starts the sandbox; seeds `dataDir` on first use (or when the catalogue size changed). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const faults = new Faults();
  try {
    faults.add([...(options.faults ?? [])]);
  } catch (caught) {
    if (caught instanceof InvalidBody) {
      throw new Error(`Invalid sandbox fault: ${JSON.stringify(caught.errors)}`, { cause: caught });
    }
    throw caught;
  }
  const dataDir = resolve(options.dataDir ?? '.sandbox');
  const token = options.token ?? 'sandbox-token';
  const storeHash = options.storeHash ?? 'sandbox';
  const imagesDir = join(dataDir, 'images');
  const sharedCache = resolve(
    fileURLToPath(new URL('../../node_modules/.cache/sandbox-images', import.meta.url)),
  );
  const siteUrl = options.siteUrl ?? 'http://localhost:4321';
  const [{ db, report }] = await Promise.all([
    openDatabase(dataDir, {
      storeHash,
      products: options.products,
      siteUrl,
      hostile: options.hostile ?? false,
    }),
    ensureImages(imagesDir, sharedCache),
  ]);
  const config: SandboxConfig = {
    storeHash,
    token,
    clientId: options.clientId ?? 'sandbox-client',
    apps: options.apps ?? [],
    clientSecret: options.clientSecret ?? 'sandbox-client-secret',
    brevoKey: options.brevoKey ?? 'sandbox-brevo-key',
    cartWriteLatencyMs: options.cartWriteLatencyMs ?? 15,
    sessions: new Map(),
    webhooks: new Webhooks(
      options.webhookRetryDelaysMs ? { retryDelaysMs: options.webhookRetryDelaysMs } : {},
    ),
  };
  const contentful: ContentfulConfig = {
    ...CONTENTFUL_DEFAULTS,
    ...options.contentful,
    imagesDir,
  };
  const state: ServerState = { db, config, imagesDir, faults, contentful };
  const inFlight = new Set<Promise<void>>();

  const server = createServer((req, res) => {
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const done = (reply: Reply): void => {
      send(res, reply, req.method === 'HEAD');
    };
    const answer = (): Promise<Reply> =>
      path === FAULTS_PATH || path.startsWith(`${FAULTS_PATH}/`)
        ? faultsAdmin(req, state, path)
        : path === DELIVERIES_PATH
          ? Promise.resolve(deliveriesAdmin(req, state, new URL(req.url ?? '/', origin)))
          : path.startsWith('/images/ctf/') || path.startsWith('/ctf-assets/')
            ? serveAsset(path, new URL(req.url ?? '/', origin).searchParams, db, contentful).then(
                (reply) => reply ?? ctfError(404, 'NotFound', 'The resource could not be found.'),
              )
            : path.startsWith('/images/')
              ? serveImage(path, state)
              : handle(req, state, origin);
    // The delivery log is an admin endpoint: never faulted, like the faults one.
    const fault = path === DELIVERIES_PATH ? undefined : faults.pick(req.method ?? 'GET', path);
    const work = (fault ? faulted(fault, req, res, state, path, answer) : answer())
      .catch((caught: unknown) => {
        console.error('[sandbox]', caught);
        return v3Error(500, 'Internal Server Error');
      })
      .then((reply) => {
        if (reply !== undefined && !res.destroyed) done(reply);
      });
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', fail);
      ok();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  if (options.log) {
    console.log(
      `[sandbox] BigCommerce sandbox on ${url}/stores/${storeHash} (token ${token}), ${report.products} products, ` +
        `${report.seeded ? `seeded in ${Math.round(report.ms)} ms` : 'reused'}, data in ${dataDir}; ` +
        `hosted checkout and /login/token on ${url}, Brevo on ${url}/brevo/v3, guaranteed reviews on ${url}/guaranteed-reviews`,
    );
  }
  return {
    url,
    storeHash,
    token,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    brevoKey: config.brevoKey,
    seed: report,
    faults,
    contentful: {
      spaceId: contentful.spaceId,
      environment: contentful.environment,
      deliveryToken: contentful.deliveryToken,
      managementToken: contentful.managementToken,
    },
    close: () =>
      new Promise<void>((ok, fail) => {
        faults.releaseHeld();
        server.closeAllConnections();
        server.close((err) => {
          void Promise.allSettled([...inFlight, config.webhooks.close()]).then(() => {
            db.close();
            if (err) fail(err);
            else ok();
          });
        });
      }),
  };
}

/** True when a sandbox answers on `url` (e.g. `http://127.0.0.1:4010`), checked with its store endpoint. */
export function isSandboxListening(
  url: string,
  storeHash = 'sandbox',
  timeoutMs = 1_000,
): Promise<boolean> {
  return new Promise((done) => {
    const req = request(
      `${url}/stores/${storeHash}/v2/store`,
      { method: 'HEAD', timeout: timeoutMs },
      (res) => {
        res.resume();
        // 401 without a token still means a sandbox is there.
        done(res.statusCode === 200 || res.statusCode === 401);
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => {
      done(false);
    });
    req.end();
  });
}

if (import.meta.main) {
  const port = Number(process.env.SANDBOX_PORT ?? 4010);
  const products = process.env.SANDBOX_PRODUCTS ? Number(process.env.SANDBOX_PRODUCTS) : undefined;
  const sandbox = await startSandbox({
    port,
    log: true,
    ...(process.env.SANDBOX_SITE_URL ? { siteUrl: process.env.SANDBOX_SITE_URL } : {}),
    ...(process.env.SANDBOX_DATA_DIR ? { dataDir: process.env.SANDBOX_DATA_DIR } : {}),
    ...(products ? { products } : {}),
    faults: faultsFromEnv(process.env.SANDBOX_FAULTS),
    hostile: process.env.SANDBOX_HOSTILE === '1',
  });
  const stop = (): void => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
