/**
 * The BigCommerce sandbox: a local server answering the subset of the REST API the shop uses,
 * at the same paths (`/stores/{storeHash}/v3/...`, `/v2/...`), on node:sqlite with a seeded
 * French catalogue. Run directly (`npm run sandbox`) or start it from code with startSandbox().
 * Its API routes are one table (route-table.ts); its own endpoints, fault injection and the
 * webhook delivery log, are in admin.ts.
 */
import { readFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENTFUL_DEFAULTS, ctfError, type ContentfulConfig } from './contentful-store.ts';
import { openDatabase, type SeedReport } from './db.ts';
import { FAULTS_PATH, faultsFromEnv, Faults, type FaultSpec } from './faults.ts';
import {
  readBody,
  InvalidBody,
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
import { handleDelivery } from './routes/contentful.ts';
import { serveAsset } from './routes/contentful-assets.ts';
import { handleManagement } from './routes/contentful-management.ts';
import type { RouteContext, SandboxConfig } from './routes/context.ts';
import { handleGuaranteedReviews } from './routes/guaranteed-reviews.ts';
import * as storefront from './routes/storefront.ts';
import { Webhooks } from './webhooks.ts';
import { type Family, ROUTES, familyError } from './route-table.ts';
import {
  type ServerState,
  faultsAdmin,
  DELIVERIES_PATH,
  deliveriesAdmin,
  faulted,
} from './admin.ts';

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

const IMAGE_PATH = /^\/images\/(\d+x\d+)\/([a-z0-9-]+\.jpg)$/;

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
