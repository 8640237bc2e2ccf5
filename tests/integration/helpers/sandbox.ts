/**
 * Starts the BigCommerce sandbox for an integration test: free port, fresh temporary data dir
 * (pictures come from the shared cache, so a start takes well under a second once warm).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  'products' | 'siteUrl' | 'cartWriteLatencyMs' | 'clientId' | 'clientSecret' | 'brevoKey'
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
