/**
 * The BigCommerce sandbox: a local server answering the subset of the REST API the shop uses,
 * at the same paths (`/stores/{storeHash}/v3/...`, `/v2/...`), on node:sqlite with a seeded
 * French catalogue. Run directly (`npm run sandbox`) or start it from code with startSandbox().
 */
import { readFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { openDatabase, type SeedReport } from './db.ts';
import { Query, QueryError, queryErrorReply, send, v2Error, v3Error, type Reply } from './http.ts';
import { ensureImages } from './images.ts';
import * as catalog from './routes/catalog.ts';
import type { RouteContext } from './routes/context.ts';
import * as reviews from './routes/reviews.ts';
import * as store from './routes/store.ts';

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
}

export interface Sandbox {
  /** `http://127.0.0.1:PORT`; the API base is `${url}/stores/${storeHash}`. */
  url: string;
  storeHash: string;
  token: string;
  seed: SeedReport;
  close(): Promise<void>;
}

type Handler = (ctx: RouteContext) => Reply;

interface Route {
  version: 'v2' | 'v3';
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

function route(version: 'v2' | 'v3', path: string, handler: Handler): Route {
  const keys: string[] = [];
  const source = path.replace(/\{(\w+)\}/g, (_, key: string) => {
    keys.push(key);
    return '(\\d+)';
  });
  return { version, pattern: new RegExp(`^${source}/?$`), keys, handler };
}

/** GET routes, in match order (literal segments before `{id}`). */
const ROUTES: Route[] = [
  route('v3', '/catalog/products', catalog.listProducts),
  route('v3', '/catalog/products/{id}', catalog.getProduct),
  route('v3', '/catalog/products/{id}/reviews', reviews.listReviews),
  route('v3', '/catalog/categories', catalog.listCategories),
  route('v3', '/catalog/categories/tree', catalog.categoryTree),
  route('v3', '/catalog/categories/metafields', catalog.allCategoryMetafields),
  route('v3', '/catalog/categories/{id}', catalog.getCategory),
  route('v3', '/catalog/categories/{id}/metafields', catalog.categoryMetafields),
  route('v3', '/catalog/brands', catalog.listBrands),
  route('v3', '/catalog/brands/{id}', catalog.getBrand),
  route('v3', '/channels/{id}', store.getChannel),
  route('v3', '/storefront/redirects', store.listRedirects),
  route('v2', '/store', store.getStore),
  route('v2', '/banners', store.listBanners),
  route('v2', '/banners/{id}', store.getBanner),
];

const IMAGE_PATH = /^\/images\/(\d+x\d+)\/([a-z0-9-]+\.jpg)$/;

interface ServerState {
  db: DatabaseSync;
  token: string;
  storeHash: string;
  imagesDir: string;
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

function handle(req: IncomingMessage, state: ServerState, origin: string): Reply {
  const url = new URL(req.url ?? '/', origin);
  const prefix = `/stores/${state.storeHash}/`;
  if (!url.pathname.startsWith(prefix)) return v3Error(404, 'Not Found');
  const rest = url.pathname.slice(prefix.length - 1);
  const version = rest.startsWith('/v2/') ? 'v2' : rest.startsWith('/v3/') ? 'v3' : undefined;
  if (!version) return v3Error(404, 'Not Found');
  const error = (status: number, message: string): Reply =>
    version === 'v2' ? v2Error(status, message) : v3Error(status, message);

  if (req.headers['x-auth-token'] !== state.token) {
    return error(401, 'No valid credentials were found in this request.');
  }
  const path = rest.slice(3);
  for (const candidate of ROUTES) {
    if (candidate.version !== version) continue;
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    if (req.method !== 'GET' && req.method !== 'HEAD') return error(405, 'Method Not Allowed');
    const params: Record<string, string> = {};
    candidate.keys.forEach((key, index) => {
      params[key] = match[index + 1] ?? '';
    });
    const ctx: RouteContext = {
      db: state.db,
      query: new Query(url.searchParams),
      params,
      origin,
      storeHash: state.storeHash,
    };
    try {
      return candidate.handler(ctx);
    } catch (caught) {
      if (caught instanceof QueryError) {
        return version === 'v2' ? v2Error(400, caught.message) : queryErrorReply(caught);
      }
      throw caught;
    }
  }
  return error(404, 'The requested resource was not found.');
}

/** Starts the sandbox; seeds `dataDir` on first use (or when the catalogue size changed). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const dataDir = resolve(options.dataDir ?? '.sandbox');
  const token = options.token ?? 'sandbox-token';
  const storeHash = options.storeHash ?? 'sandbox';
  const imagesDir = join(dataDir, 'images');
  const sharedCache = resolve(
    fileURLToPath(new URL('../../node_modules/.cache/sandbox-images', import.meta.url)),
  );
  const [{ db, report }] = await Promise.all([
    Promise.resolve(openDatabase(dataDir, { storeHash, products: options.products })),
    ensureImages(imagesDir, sharedCache),
  ]);
  const state: ServerState = { db, token, storeHash, imagesDir };

  const server = createServer((req, res) => {
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const done = (reply: Reply): void => {
      send(res, reply, req.method === 'HEAD');
    };
    if (path.startsWith('/images/')) {
      void serveImage(path, state).then(done);
      return;
    }
    try {
      done(handle(req, state, origin));
    } catch (caught) {
      console.error('[sandbox]', caught);
      done(v3Error(500, 'Internal Server Error'));
    }
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
        `${report.seeded ? `seeded in ${Math.round(report.ms)} ms` : 'reused'}, data in ${dataDir}`,
    );
  }
  return {
    url,
    storeHash,
    token,
    seed: report,
    close: () =>
      new Promise<void>((ok, fail) => {
        server.closeAllConnections();
        server.close((err) => {
          db.close();
          if (err) fail(err);
          else ok();
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
    ...(process.env.SANDBOX_DATA_DIR ? { dataDir: process.env.SANDBOX_DATA_DIR } : {}),
    ...(products ? { products } : {}),
  });
  const stop = (): void => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
