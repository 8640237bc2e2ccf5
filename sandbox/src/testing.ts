/**
 * The sandbox for a test (`@literie/sandbox/testing`): started on a free port with a fresh
 * temporary data dir (pictures come from the shared cache, so a start takes well under a
 * second once warm), and a JSON client of its BigCommerce API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type SandboxOptions } from './server.ts';

export interface TestSandbox {
  /** `http://127.0.0.1:PORT`; the API base is `${url}/stores/${storeHash}`. */
  url: string;
  storeHash: string;
  token: string;
  /** BigCommerce app credentials (customer login JWTs). */
  clientId: string;
  clientSecret: string;
  /** Brevo `api-key`; the Brevo base is `${url}/brevo/v3`. */
  brevoKey: string;
  /** The temporary data dir (deleted by close()). */
  dataDir: string;
  /** The Contentful emulation: space, environment and tokens (Delivery API at `${url}/contentful`). */
  contentful: {
    spaceId: string;
    environment: string;
    deliveryToken: string;
    managementToken: string;
  };
  close(): Promise<void>;
}

export type TestSandboxOptions = Pick<
  SandboxOptions,
  | 'products'
  | 'siteUrl'
  | 'cartWriteLatencyMs'
  | 'clientId'
  | 'clientSecret'
  | 'brevoKey'
  | 'hostile'
  | 'webhookRetryDelaysMs'
  | 'apps'
>;

export async function startTestSandbox(options: TestSandboxOptions = {}): Promise<TestSandbox> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
  const sandbox = await startSandbox({ port: 0, dataDir, ...options });
  return {
    url: sandbox.url,
    storeHash: sandbox.storeHash,
    token: sandbox.token,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
    brevoKey: sandbox.brevoKey,
    dataDir,
    contentful: sandbox.contentful,
    close: async () => {
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON call to the sandbox's BigCommerce API (`path` after `/stores/{hash}`). */
export interface ApiReply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export function sandboxApi(sandbox: Pick<TestSandbox, 'url' | 'storeHash' | 'token'>) {
  return async function api<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    init: { token?: string | null; rawBody?: string } = {},
  ): Promise<ApiReply<T>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = init.token === undefined ? sandbox.token : init.token;
    if (token !== null) headers['X-Auth-Token'] = token;
    let payload: string | undefined = init.rawBody;
    if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${sandbox.url}/stores/${sandbox.storeHash}${path}`, {
      method,
      headers,
      ...(payload !== undefined ? { body: payload } : {}),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : null) as T,
      headers: response.headers,
    };
  };
}
