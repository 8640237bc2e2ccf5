/**
 * Two `npm start --no-build` copies of the shop on one Redis, one fresh sandbox (on the port
 * the build talks to) and one releases folder in a temporary folder outside the project, as the
 * several-copies tests run them. The first copy takes the build lease before the second starts.
 * `useTwoCopies` registers the suite's `beforeAll` and `afterAll` and gives the running parts,
 * and a way to start more copies alike (a copy restarted after a kill).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox } from '@literie/sandbox/server';
import { startShopChild, statusWhen, type ShopChild } from '../../integration/helpers/rebuild.ts';
import { freePort } from '../../../src/server/free-port.ts';
import { startRedis, type TestRedis } from '../../integration/helpers/redis.ts';
import { DIST_DIR, requireBuild, SANDBOX_PORT } from './suite.ts';

const READY = 'the shop runs at';

export interface TwoCopies {
  /** The copy that took the build lease. */
  holder: ShopChild;
  /** The other one. */
  follower: ShopChild;
  sandbox: Sandbox;
  redis: TestRedis;
  /** The releases folder both copies share. */
  releases: string;
  /** The temporary folder holding it all. */
  root: string;
  /**
   * Starts one more copy with the same environment (and `extra`), on `port` (default: a free
   * one); stopped after the suite.
   */
  start: (extra?: NodeJS.ProcessEnv, port?: number) => Promise<ShopChild>;
}

export interface TwoCopiesOptions {
  /** Prefix of the temporary folder. */
  name: string;
  /** The environment of each copy; `base` is the sandbox, Redis, releases and build part. */
  env: (base: NodeJS.ProcessEnv, root: string) => NodeJS.ProcessEnv;
  /** Added to the environment of the second copy only (a skewed clock...). */
  followerEnv?: NodeJS.ProcessEnv;
  /** Runs once both copies are up (a warm-up build, webhooks...). */
  ready?: (copies: TwoCopies) => Promise<void>;
  /** How long `beforeAll` may take (default: the scale project's hook timeout). */
  timeout?: number;
}

/** Starts the two copies before the suite and stops them after; returns them once started. */
export function useTwoCopies(options: TwoCopiesOptions): () => TwoCopies {
  let running: Partial<TwoCopies> = {};
  const more: ShopChild[] = [];
  let startCopy: ((extra?: NodeJS.ProcessEnv, port?: number) => Promise<ShopChild>) | undefined;

  beforeAll(async () => {
    requireBuild();
    const root = mkdtempSync(path.join(tmpdir(), `${options.name}-`));
    const releases = path.join(root, 'releases');
    running = { root, releases };
    const sandbox = await startSandbox({ port: SANDBOX_PORT, dataDir: path.join(root, 'sandbox') });
    running.sandbox = sandbox;
    const redis = await startRedis();
    running.redis = redis;
    const env = options.env(
      {
        UPSTREAM: 'sandbox',
        SANDBOX_PORT: String(SANDBOX_PORT),
        SANDBOX_DIR: path.join(root, 'sandbox'),
        DIST_DIR,
        REDIS_URL: redis.url,
        RELEASES_DIR: releases,
        LOG_LEVEL: 'info',
      },
      root,
    );
    const start = async (extra: NodeJS.ProcessEnv = {}, port?: number) =>
      startShopChild(
        ['scripts/start.ts', '--no-build'],
        { ...env, ...extra },
        port ?? (await freePort()),
        READY,
      );
    startCopy = async (extra, port) => {
      const copy = await start(extra, port);
      more.push(copy);
      return copy;
    };
    const holder = await start();
    running.holder = holder;
    await statusWhen(holder.base, (status) => status.copies?.role === 'builder');
    const follower = await start(options.followerEnv);
    running.follower = follower;
    await statusWhen(follower.base, (status) => (status.copies?.builder ?? null) !== null);
    await options.ready?.(started());
  }, options.timeout);

  afterAll(async () => {
    await Promise.all(
      [running.holder, running.follower, ...more.splice(0)].flatMap((copy) =>
        copy === undefined ? [] : [copy.stop()],
      ),
    );
    await running.redis?.stop();
    await running.sandbox?.close();
    if (running.root !== undefined) rmSync(running.root, { recursive: true, force: true });
  });

  function started(): TwoCopies {
    const { holder, follower, sandbox, redis, releases, root } = running;
    if (
      !holder ||
      !follower ||
      !sandbox ||
      !redis ||
      releases === undefined ||
      root === undefined
    ) {
      throw new Error('the copies did not start');
    }
    const start = startCopy;
    if (start === undefined) throw new Error('the copies did not start');
    return { holder, follower, sandbox, redis, releases, root, start };
  }
  return started;
}
