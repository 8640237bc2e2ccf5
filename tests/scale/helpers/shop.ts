/**
 * The production server of a build in a child process (`serve.ts` here), as the post-build
 * tests start it: resolves once it listens; its output is kept for the tests to read.
 */
import { spawn } from 'node:child_process';

export interface ShopProcess {
  /** `http://127.0.0.1:PORT`. */
  base: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** Stops it (SIGTERM) and waits for its exit. */
  stop(): Promise<void>;
}

export async function startShopProcess(env: NodeJS.ProcessEnv, port: number): Promise<ShopProcess> {
  let output = '';
  const child = spawn(process.execPath, ['tests/scale/helpers/serve.ts'], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!output.includes('[serve] shop at')) {
    if (child.exitCode !== null) throw new Error(`the shop exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the shop did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base: `http://127.0.0.1:${String(port)}`,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * This process's environment without the suite's own services (BigCommerce and Contentful
 * credentials, `REBUILD_COMMAND`, `REDIS_URL`): for a shop a test starts on its own sandbox.
 */
export function withoutSuiteServices(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(BIGCOMMERCE_|CONTENTFUL_|REBUILD_COMMAND$|REDIS_URL$)/.test(name),
    ),
  );
}
