/**
 * Decides which upstream the shop talks to, for the scripts that build, serve or develop it.
 * With BigCommerce credentials in the environment (or in `.env`), the real services are used
 * as configured. Without them, the local sandbox is started (or reused if one already answers
 * on its port) and the BigCommerce variables are pointed at it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readEnvironment } from '../../src/shop/config/environment.ts';

/**
 * The sandbox's Contentful space: the Delivery API at `{sandbox}/contentful/spaces/{spaceId}/
 * environments/{environment}` (bearer `deliveryToken`) and the management side at
 * `{sandbox}/contentful-management/...` (bearer `managementToken`).
 */
export const SANDBOX_CONTENTFUL = Object.freeze({
  spaceId: 'sandbox',
  environment: 'master',
  deliveryToken: 'sandbox-cda-token',
  managementToken: 'sandbox-cma-token',
});

export interface Upstream {
  /** Environment for child processes (astro build / dev / the server). */
  env: NodeJS.ProcessEnv;
  /** 'sandbox' or 'bigcommerce'. */
  kind: 'sandbox' | 'bigcommerce';
  /** Stops the sandbox if this process started it. */
  close(): Promise<void>;
}

/** Loads `.env` into process.env (values already set win), like Astro and Vite do. */
export function loadDotEnv(root = process.cwd()): void {
  const file = path.join(root, '.env');
  if (existsSync(file)) process.loadEnvFile(file);
}

function hasCredentials(env: NodeJS.ProcessEnv): boolean {
  const settings = readEnvironment(
    ['UPSTREAM', 'BIGCOMMERCE_STORE_HASH', 'BIGCOMMERCE_ACCESS_TOKEN'],
    env,
  );
  // UPSTREAM=sandbox forces the sandbox even when credentials are configured (tests rely on
  // the seeded catalogue).
  if (settings.UPSTREAM === 'sandbox') return false;
  return Boolean(settings.BIGCOMMERCE_STORE_HASH && settings.BIGCOMMERCE_ACCESS_TOKEN);
}

/**
 * The shop's session secret when it runs on the sandbox: 32 random bytes (hex) created once
 * and kept in `{dataDir}/session-secret`, so sessions survive restarts.
 */
export function sandboxSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(saved)) return saved;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * Returns the upstream environment, starting the sandbox when no credentials are set.
 * `SANDBOX_PORT` (default 4010) and `SANDBOX_DIR` (default `.sandbox`) choose where it runs;
 * `SANDBOX_SITE_URL` (default `http://localhost:${PORT ?? 4321}`) is the shop URL the hosted
 * checkout sends shoppers back to.
 */
export async function ensureUpstream(
  options: { products?: number; dataDir?: string; port?: number; siteUrl?: string } = {},
): Promise<Upstream> {
  const env = { ...process.env };
  if (hasCredentials(env)) {
    return { env, kind: 'bigcommerce', close: () => Promise.resolve() };
  }
  const { startSandbox, isSandboxListening } = await import('@literie/sandbox/server');
  const { faultsFromEnv } = await import('@literie/sandbox/faults');
  const settings = readEnvironment(['SANDBOX_PORT', 'SANDBOX_DIR', 'PORT'], env);
  const port = options.port ?? settings.SANDBOX_PORT;
  const dataDir = options.dataDir ?? settings.SANDBOX_DIR;
  const token = env.SANDBOX_TOKEN ?? 'sandbox-token';
  const storeHash = 'sandbox';
  const url = `http://127.0.0.1:${port}`;
  const siteUrl =
    options.siteUrl ?? env.SANDBOX_SITE_URL ?? `http://localhost:${String(settings.PORT)}`;
  let close = (): Promise<void> => Promise.resolve();
  if (await isSandboxListening(url)) {
    console.log(`[upstream] reusing the sandbox already running at ${url}`);
  } else {
    const sandbox = await startSandbox({
      port,
      dataDir,
      token,
      storeHash,
      siteUrl,
      // SANDBOX_HOSTILE=1 (npm test): the hostile catalogue of the XSS browser test.
      hostile: env.SANDBOX_HOSTILE === '1',
      // SANDBOX_FAULTS: faults in force from the start (sandbox/README.md, "Faults").
      faults: faultsFromEnv(env.SANDBOX_FAULTS),
      ...(options.products ? { products: options.products } : {}),
    });
    close = () => sandbox.close();
  }
  env.BIGCOMMERCE_API_URL = url;
  env.BIGCOMMERCE_STORE_HASH = storeHash;
  env.BIGCOMMERCE_ACCESS_TOKEN = token;
  env.BIGCOMMERCE_CLIENT_ID = 'sandbox-client';
  env.BIGCOMMERCE_CLIENT_SECRET = 'sandbox-client-secret';
  env.BREVO_API_URL = `${url}/brevo/v3`;
  env.BREVO_API_KEY = 'sandbox-brevo-key';
  env.CONTENTFUL_API_URL = `${url}/contentful`;
  env.REVIEWS_API_URL = `${url}/guaranteed-reviews/public/v3/reviews`;
  env.REVIEWS_WIDGET_URL = `${url}/guaranteed-reviews/widget`;
  env.CONTENTFUL_SPACE_ID = SANDBOX_CONTENTFUL.spaceId;
  env.CONTENTFUL_ENVIRONMENT = SANDBOX_CONTENTFUL.environment;
  env.CONTENTFUL_ACCESS_TOKEN = SANDBOX_CONTENTFUL.deliveryToken;
  env.SESSION_SECRET ??= sandboxSessionSecret(path.resolve(dataDir));
  return { env, kind: 'sandbox', close };
}

/**
 * The webhook secrets of the shop when it runs on the sandbox (`npm start`): the Contentful
 * signing secret (64 hex characters) and the BigCommerce hooks' `X-Webhook-Secret` value,
 * created once and kept in `{dataDir}/webhook-secrets.json` beside the sandbox's data.
 */
export function sandboxWebhookSecrets(dataDir: string): {
  contentful: string;
  bigcommerce: string;
} {
  const file = path.join(dataDir, 'webhook-secrets.json');
  if (existsSync(file)) {
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const { contentful, bigcommerce } = saved;
      if (
        typeof contentful === 'string' &&
        /^[0-9a-f]{64}$/.test(contentful) &&
        typeof bigcommerce === 'string' &&
        /^[0-9a-f]{64}$/.test(bigcommerce)
      ) {
        return { contentful, bigcommerce };
      }
    } catch {
      // Unreadable: made again below.
    }
  }
  mkdirSync(dataDir, { recursive: true });
  const secrets = {
    contentful: randomBytes(32).toString('hex'),
    bigcommerce: randomBytes(32).toString('hex'),
  };
  writeFileSync(file, `${JSON.stringify(secrets)}\n`, { mode: 0o600 });
  return secrets;
}

/** The BigCommerce scopes the shop rebuilds for. */
export const REBUILD_HOOK_SCOPES = ['store/product/*', 'store/category/*', 'store/brand/*'];

/**
 * Registers the shop's webhooks with the sandbox, so a publish there rebuilds the running
 * shop: the Contentful signing secret and a webhook definition to `{shopUrl}/webhooks/contentful`
 * (management API), and BigCommerce hooks for products, categories and brands to
 * `{shopUrl}/webhooks/bigcommerce` with the `X-Webhook-Secret` header. Idempotent: existing
 * registrations to the same URL are updated, not doubled. Returns one line per problem (the
 * shop runs without rebuilds on what failed).
 */
export async function registerSandboxWebhooks(options: {
  sandboxUrl: string;
  shopUrl: string;
  contentfulSecret: string | undefined;
  bigcommerceSecret: string | undefined;
  storeHash?: string;
  token?: string;
}): Promise<string[]> {
  const problems: string[] = [];
  const call = async (
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<unknown> => {
    const response = await fetch(url, {
      method,
      headers: {
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(5_000),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 200)}`);
    return text === '' ? null : (JSON.parse(text) as unknown);
  };

  if (options.contentfulSecret !== undefined) {
    const base = `${options.sandboxUrl}/contentful-management/spaces/${SANDBOX_CONTENTFUL.spaceId}`;
    const auth = { authorization: `Bearer ${SANDBOX_CONTENTFUL.managementToken}` };
    const url = `${options.shopUrl}/webhooks/contentful`;
    try {
      await call('PUT', `${base}/webhook_settings/signing_secret`, auth, {
        value: options.contentfulSecret,
      });
      const listed = (await call('GET', `${base}/webhook_definitions`, auth).catch(() => null)) as {
        items?: { url?: unknown }[];
      } | null;
      const known = (listed?.items ?? []).some((item) => item.url === url);
      if (!known) {
        await call('POST', `${base}/webhook_definitions`, auth, {
          name: 'Shop rebuild',
          url,
          topics: ['Entry.publish', 'Entry.unpublish', 'Entry.delete'],
        });
      }
    } catch (error) {
      problems.push(`contentful: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  if (options.bigcommerceSecret !== undefined) {
    const base = `${options.sandboxUrl}/stores/${options.storeHash ?? 'sandbox'}/v3/hooks`;
    const auth = { 'x-auth-token': options.token ?? 'sandbox-token', accept: 'application/json' };
    const destination = `${options.shopUrl}/webhooks/bigcommerce`;
    const headers = { 'X-Webhook-Secret': options.bigcommerceSecret };
    try {
      const listed = (await call('GET', base, auth).catch(() => null)) as {
        data?: { id?: unknown; scope?: unknown; destination?: unknown }[];
      } | null;
      for (const scope of REBUILD_HOOK_SCOPES) {
        const existing = (listed?.data ?? []).find(
          (hook) => hook.scope === scope && hook.destination === destination,
        );
        if (existing && typeof existing.id === 'number') {
          await call('PUT', `${base}/${existing.id}`, auth, { is_active: true, headers });
        } else {
          await call('POST', base, auth, { scope, destination, is_active: true, headers });
        }
      }
    } catch (error) {
      problems.push(`bigcommerce: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}
