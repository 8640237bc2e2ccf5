/**
 * Rebuild and swap of the production build under load: `npm start
 * --no-build` (the supervisor, one worker) on the build `npm test` made (DIST_DIR), a fresh
 * sandbox on the port that build talks to, releases in a temporary folder. The rebuild command
 * is a copy of that build (`REBUILD_COMMAND`: the swap is what is tested, the Astro build has
 * its own tests and bench:rebuild times it). autocannon drives a mix of pages (static home,
 * category and product pages, a listing view and search results rendered on demand, a hashed
 * asset) while a signed Contentful publish is accepted, built and swapped in: not one request
 * fails. Then a failing build leaves the release serving and the status says failed.
 * Run by `npm test` after the build (vitest project `scale`); by hand:
 * `DIST_DIR=dist-x SANDBOX_PORT=N npx vitest run --project scale tests/scale/rebuild.test.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '@literie/sandbox/server';
import { sendPublish } from '../integration/helpers/rebuild.ts';
import { freePort } from '../../src/server/free-port.ts';
import { autocannon, failuresOf, loadRequests, NO_FAILURES, pagesOf } from './helpers/load.ts';
import { DIST_DIR, requireBuild, SANDBOX_PORT } from './helpers/suite.ts';

const SECRET = 'e'.repeat(64);

let sandbox: Sandbox;
let root = '';
let releases = '';
let failFlag = '';
let shop: ChildProcess | undefined;
let base = '';
let output = '';

interface Status {
  state: string;
  builds: number;
  current: { id: string };
  lastBuild: { id: string; result: string; error?: string } | null;
}

async function status(): Promise<Status> {
  return (await (await fetch(`${base}/webhooks/status`)).json()) as Status;
}

async function settledAfter(builds: number, timeoutMs = 60_000): Promise<Status> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await status();
    if (now.builds >= builds && now.state !== 'building' && now.state !== 'waiting') return now;
    if (Date.now() > deadline) throw new Error(`no settled status: ${JSON.stringify(now)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const publish = (id: string) => sendPublish(base, id, SECRET);

beforeAll(async () => {
  requireBuild();
  root = mkdtempSync(path.join(tmpdir(), 'rebuild-scale-'));
  releases = path.join(root, 'releases');
  failFlag = path.join(root, 'fail');
  sandbox = await startSandbox({ port: SANDBOX_PORT, dataDir: path.join(root, 'sandbox') });
  const port = await freePort();
  shop = spawn(process.execPath, ['scripts/start.ts', '--no-build'], {
    env: {
      ...process.env,
      UPSTREAM: 'sandbox',
      SANDBOX_PORT: String(SANDBOX_PORT),
      SANDBOX_DIR: path.join(root, 'sandbox'),
      DIST_DIR,
      PORT: String(port),
      STATE_DIR: path.join(root, 'state'),
      RELEASES_DIR: releases,
      CONTENTFUL_WEBHOOK_SECRET: SECRET,
      REBUILD_DEBOUNCE_MS: '500',
      // The rebuild's progress lines ('is live') are info (LOG_LEVEL, spec §9 default error).
      LOG_LEVEL: 'info',
      REBUILD_COMMAND: `if [ -f "${failFlag}" ]; then echo "build failed on purpose" >&2; exit 1; fi; cp -r "${path.resolve(DIST_DIR)}/." "$RELEASE_DIR"`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  shop.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  shop.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!output.includes('the shop runs at')) {
    if (shop.exitCode !== null) throw new Error(`the shop exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the shop did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(async () => {
  const child = shop;
  if (child?.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await sandbox.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a rebuild under load', () => {
  test('every page answers 200 before the swap', async () => {
    for (const page of pagesOf(DIST_DIR)) {
      const response = await fetch(`${base}${page}`);
      await response.text();
      expect(response.status, page).toBe(200);
    }
  });

  test('a publish is built and swapped in while the shop is under load: 0 failed requests', async () => {
    const before = await status();
    const requests = loadRequests(DIST_DIR);
    const load = autocannon({ url: base, connections: 16, duration: 14, requests });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await publish('entree-sous-charge')).toBe(202);
    const after = await settledAfter(before.builds + 1);
    const result = await load;
    expect(after, JSON.stringify(after.lastBuild)).toMatchObject({
      state: 'idle',
      lastBuild: { result: 'succeeded' },
    });
    expect(after.current.id).not.toBe(before.current.id);
    // The swap happened during the load (it ran 14 s; the build is a copy).
    expect(output).toContain(`[rebuild] ${after.current.id} is live`);
    expect(result.requests.total).toBeGreaterThan(1000);
    expect(failuresOf(result)).toEqual(NO_FAILURES);
  }, 90_000);

  test('a failed build keeps the release serving and the status says failed', async () => {
    const before = await status();
    writeFileSync(failFlag, '');
    expect(await publish('entree-cassee')).toBe(202);
    const after = await settledAfter(before.builds + 1);
    expect(after.state).toBe('failed');
    expect(after.current.id).toBe(before.current.id);
    expect(after.lastBuild?.error).toContain('build failed on purpose');
    expect(output).toMatch(/\[rebuild\] build r[0-9a-f-]+ failed after .* still serving/);
    for (const page of pagesOf(DIST_DIR)) {
      const response = await fetch(`${base}${page}`);
      await response.text();
      expect(response.status, page).toBe(200);
    }
  }, 90_000);
});
