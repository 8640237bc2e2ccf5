/**
 * The supervised server (`src/server/serve.ts`, `scripts/start.ts`) as the rebuild tests drive it:
 * started in a child process (resolves once it says it serves; `startServe`: `serve.ts` in test
 * mode on a tiny dist), a signed Contentful publish sent to it, its rebuild status read and
 * waited on.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../../../src/server/free-port.ts';
import { signContentfulRequest } from '../../../src/server/webhooks/contentful.ts';

export interface ShopChild {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT`. */
  base: string;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  /** SIGTERM, then its exit code. */
  stop: () => Promise<number | null>;
}

/**
 * Runs `script` (`src/server/serve.ts` or `scripts/start.ts --no-build`) with `env` on `port`;
 * resolves once its output shows `ready`, fails when it exits first or takes over a minute.
 */
export async function startShopChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  ready: string,
): Promise<ShopChild> {
  const child = spawn(process.execPath, args, {
    // Stopped by the tests with SIGTERM: no balancer to wait for unless a test sets a delay.
    env: { SHUTDOWN_DELAY_MS: '0', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      done(new Error(`the shop did not start:\n${output}`));
    }, 60_000);
    const check = () => {
      if (output.includes(ready)) done();
    };
    const exited = () => {
      done(new Error(`the shop exited:\n${output}`));
    };
    function done(error?: Error) {
      clearTimeout(timer);
      child.stdout.off('data', check);
      child.off('exit', exited);
      if (error) reject(error);
      else resolve();
    }
    child.stdout.on('data', check);
    child.once('exit', exited);
    check();
  });
  return {
    child,
    base: `http://127.0.0.1:${String(port)}`,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        // Already gone (it exited, or a test killed it with a signal).
        if (child.exitCode !== null || child.signalCode !== null) {
          resolve(child.exitCode);
          return;
        }
        child.once('exit', (code) => {
          resolve(code);
        });
        child.kill('SIGTERM');
      }),
  };
}

/** How a test runs `node src/server/serve.ts` (`startServe`). */
export interface ServeSetup {
  /** The release served at start (`DIST_DIR`: a tiny dist, `writeTinyDist`). */
  dist: string;
  /** Where its releases go (`RELEASES_DIR`). */
  releases: string;
  /**
   * Builds on a signed Contentful publish (`secret`): `command` run after `debounceMs`, with
   * `FIXTURE_DIST` naming `dist`. Without it: no Contentful secret, no build command.
   */
  rebuild?: { command: string; secret: string; debounceMs: number };
  /** Set over the rest: `REDIS_URL`, `SERVER_WORKERS`, `LOG_LEVEL`, the command's variables. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts the supervised server (`node src/server/serve.ts`) on a free port, in test mode with
 * its state in memory, no BigCommerce webhook secret, and no Redis and one worker unless `env`
 * says otherwise.
 */
export async function startServe({
  dist,
  releases,
  rebuild,
  env = {},
}: ServeSetup): Promise<ShopChild> {
  return startShopChild(
    ['src/server/serve.ts'],
    {
      ...process.env,
      NODE_ENV: 'test',
      DIST_DIR: dist,
      STATE_DIR: ':memory:',
      REDIS_URL: '',
      RELEASES_DIR: releases,
      CONTENTFUL_WEBHOOK_SECRET: rebuild?.secret ?? '',
      BIGCOMMERCE_WEBHOOK_SECRET: '',
      ...(rebuild && {
        REBUILD_DEBOUNCE_MS: String(rebuild.debounceMs),
        REBUILD_COMMAND: rebuild.command,
        FIXTURE_DIST: dist,
      }),
      SERVER_WORKERS: '1',
      ...env,
    },
    await freePort(),
    '[serve] shop at',
  );
}

/** A signed Contentful entry publish sent to `base`; its status code. */
export async function sendPublish(base: string, id: string, secret: string): Promise<number> {
  const body = JSON.stringify({ sys: { id, type: 'Entry' } });
  const headers = signContentfulRequest({
    method: 'POST',
    path: '/webhooks/contentful',
    headers: { 'X-Contentful-Topic': 'ContentManagement.Entry.publish' },
    body,
    secret,
    timestamp: Date.now(),
  });
  const response = await fetch(`${base}/webhooks/contentful`, { method: 'POST', headers, body });
  await response.text();
  return response.status;
}

/** What the tests read of `GET /webhooks/status` (`RebuildStatus`). */
export interface StatusReply {
  state: string;
  builds: number;
  current: { id: string; servingSince: string; generation: number };
  copies: { name: string; role: string; builder: string | null; redis: string } | null;
  lastBuild: { id: string; result: string; error?: string; events: number } | null;
  queuedEvents: number;
  lastEvent?: { source: string; topic: string; id: string } | null;
}

export async function readStatus(base: string): Promise<StatusReply> {
  const response = await fetch(`${base}/webhooks/status`);
  return (await response.json()) as StatusReply;
}

/** Waits until `base` has run `builds` builds and none is pending or running. */
export function settledAfter(base: string, builds: number, timeoutMs = 30_000) {
  return statusWhen(
    base,
    (now) => now.builds >= builds && now.state !== 'building' && now.state !== 'waiting',
    timeoutMs,
  );
}

/** Waits until the status of `base` satisfies `ready` (outside a test, where expect.poll is not). */
export async function statusWhen(
  base: string,
  ready: (status: StatusReply) => boolean,
  timeoutMs = 30_000,
): Promise<StatusReply> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await readStatus(base);
    if (ready(now)) return now;
    if (Date.now() > deadline) throw new Error(`status not reached: ${JSON.stringify(now)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A tiny build a supervisor can serve: a home page naming the release `initial`, an SSR entry
 * answering 404, and an empty assets folder.
 */
export async function writeTinyDist(dist: string): Promise<void> {
  await mkdir(path.join(dist, 'client/_astro'), { recursive: true });
  await mkdir(path.join(dist, 'server'), { recursive: true });
  await writeFile(path.join(dist, 'client/index.html'), '<h1>release initial</h1>');
  await writeFile(
    path.join(dist, 'server/entry.mjs'),
    `export async function handler(req, res) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Introuvable</h1>');
    }`,
  );
}
