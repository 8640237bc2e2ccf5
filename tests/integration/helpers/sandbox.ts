/**
 * Starts the BigCommerce sandbox for an integration test: free port, fresh temporary data dir
 * (pictures come from the shared cache, so a start takes well under a second once warm).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { expect } from 'vitest';
import { startSandbox, type SandboxOptions } from '../../../scripts/sandbox/server.ts';

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

interface Contract {
  endpoints: Record<string, { response: object; error: object }>;
  definitions: Record<string, object>;
}

const contract = JSON.parse(
  readFileSync(new URL('../../contracts/bigcommerce.json', import.meta.url), 'utf8'),
) as Contract;

const ajv = new Ajv({
  strict: false,
  allErrors: true,
  formats: {
    'date-time': (s: string) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s) && !Number.isNaN(Date.parse(s)),
    date: /^\d{4}-\d{2}-\d{2}$/,
    uri: (s: string) => URL.canParse(s),
    url: (s: string) => URL.canParse(s),
    uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    UUID: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    'ISO-4217': /^[A-Z]{3}$/,
    'ISO-8601': (s: string) => !Number.isNaN(Date.parse(s)),
    email: /@/,
    float: { type: 'number', validate: () => true },
    double: { type: 'number', validate: () => true },
    int32: { type: 'number', validate: () => true },
    int64: { type: 'number', validate: () => true },
  },
});
const validators = new Map<string, ValidateFunction>();

/** The contract's validation errors of `body` for `endpoint` ([] when valid). */
export function contractErrors(
  endpoint: string,
  body: unknown,
  which: 'response' | 'error' = 'response',
): string[] {
  const key = `${endpoint} ${which}`;
  let validate = validators.get(key);
  if (!validate) {
    const schema = contract.endpoints[endpoint]?.[which];
    if (!schema) throw new Error(`no contract for ${endpoint}`);
    validate = ajv.compile({ ...schema, definitions: contract.definitions });
    validators.set(key, validate);
  }
  return validate(body)
    ? []
    : ajv.errorsText(validate.errors, { separator: '\n' }).split('\n').slice(0, 10);
}

/** Asserts `body` follows the contract (tests/contracts/bigcommerce.json) of `endpoint`. */
export function expectContract(
  endpoint: string,
  body: unknown,
  which: 'response' | 'error' = 'response',
): void {
  expect(contractErrors(endpoint, body, which)).toEqual([]);
}
