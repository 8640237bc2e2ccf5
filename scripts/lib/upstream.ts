/**
 * Decides which upstream the shop talks to, for the scripts that build, serve or develop it.
 * With BigCommerce credentials in the environment (or in `.env`), the real services are used
 * as configured. Without them, the local sandbox is started (or reused if one already answers
 * on its port) and the BigCommerce variables are pointed at it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

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
  // UPSTREAM=sandbox forces the sandbox even when credentials are configured (tests rely on
  // the seeded catalogue).
  if (env.UPSTREAM === 'sandbox') return false;
  return Boolean(env.BIGCOMMERCE_STORE_HASH && env.BIGCOMMERCE_ACCESS_TOKEN);
}

/**
 * Returns the upstream environment, starting the sandbox when no credentials are set.
 * `SANDBOX_PORT` (default 4010) and `SANDBOX_DIR` (default `.sandbox`) choose where it runs.
 */
export async function ensureUpstream(
  options: { products?: number; dataDir?: string; port?: number } = {},
): Promise<Upstream> {
  const env = { ...process.env };
  if (hasCredentials(env)) {
    return { env, kind: 'bigcommerce', close: () => Promise.resolve() };
  }
  const { startSandbox, isSandboxListening } = await import('../sandbox/server.ts');
  const port = options.port ?? Number(env.SANDBOX_PORT ?? 4010);
  const dataDir = options.dataDir ?? env.SANDBOX_DIR ?? '.sandbox';
  const token = env.SANDBOX_TOKEN ?? 'sandbox-token';
  const storeHash = 'sandbox';
  const url = `http://127.0.0.1:${port}`;
  let close = (): Promise<void> => Promise.resolve();
  if (await isSandboxListening(url)) {
    console.log(`[upstream] reusing the sandbox already running at ${url}`);
  } else {
    const sandbox = await startSandbox({
      port,
      dataDir,
      token,
      storeHash,
      ...(options.products ? { products: options.products } : {}),
    });
    close = () => sandbox.close();
  }
  env.BIGCOMMERCE_API_URL = url;
  env.BIGCOMMERCE_STORE_HASH = storeHash;
  env.BIGCOMMERCE_ACCESS_TOKEN = token;
  return { env, kind: 'sandbox', close };
}
