/**
 * Redis for the tests of shared state: each test file starts its own `redis-server` on a free
 * port (no persistence) and stops it. Under CI=true a missing redis-server fails the suite;
 * elsewhere the Redis cases are skipped with a loud warning.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../../src/server/free-port.ts';
import { createFileStore } from '../../../src/shop/state/file.ts';
import { createMemoryStore } from '../../../src/shop/state/memory.ts';
import { createRedisStore } from '../../../src/shop/state/redis.ts';
import type { SharedStore } from '../../../src/shop/state/types.ts';

/** Path of `redis-server` on PATH, or null. */
export function redisServerPath(): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'redis-server');
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * Whether the Redis cases can run. Throws under CI=true when redis-server is missing (a check
 * that cannot run must not pass); elsewhere warns loudly.
 */
export function redisAvailable(): boolean {
  if (redisServerPath() !== null) return true;
  const message = 'redis-server is missing (apt-get install -y redis-server)';
  if (process.env.CI === 'true')
    throw new Error(`${message}: the Redis tests cannot run under CI.`);
  console.warn(`\n[tests] WARNING: ${message}; the Redis cases are NOT run.\n`);
  return false;
}

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts `redis-server` on `port` (default: a free one); resolves once it accepts commands. */
export async function startRedis(port?: number): Promise<TestRedis> {
  const binary = redisServerPath();
  if (binary === null) throw new Error('redis-server is missing (apt-get install -y redis-server)');
  const actualPort = port ?? (await freePort());
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(actualPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`redis-server did not start on ${actualPort}:\n${output}`));
    }, 10_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}) on ${actualPort}:\n${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${actualPort}`,
    port: actualPort,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => {
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** One kind of store for `describe.each`: how to open a fresh one, and the clean-up. */
export interface StoreKind {
  kind: 'memory' | 'file' | 'redis';
  /**
   * A store on the kind's shared data. With `now`, memory and file stores read the time from
   * it (a file store then in a file of its own); Redis keeps its own time.
   */
  open(now?: () => number): SharedStore;
  /** Stops what `setup` started (the redis-server, the temporary directory). */
  teardown(): Promise<void>;
  setup(): Promise<void>;
}

/**
 * The stores a suite of shared state runs against: memory, a file in a temporary directory,
 * and Redis when available (a redis-server per suite; `FLUSHALL`-free: keys are unique per
 * test run because each suite has its own server).
 */
export function testStores(): StoreKind[] {
  let dir = '';
  let redis: TestRedis | undefined;
  const kinds: StoreKind[] = [
    {
      kind: 'memory',
      open: (now) => createMemoryStore(now ? { now } : {}),
      setup: () => Promise.resolve(),
      teardown: () => Promise.resolve(),
    },
    {
      kind: 'file',
      open: (now) => createFileStore({ dir, ...(now ? { now, fileName: 'clocked.sqlite' } : {}) }),
      setup: () => {
        dir = mkdtempSync(path.join(tmpdir(), 'store-test-'));
        return Promise.resolve();
      },
      teardown: () => {
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    },
  ];
  if (redisAvailable()) {
    kinds.push({
      kind: 'redis',
      open: () => {
        if (redis === undefined) throw new Error('startRedis() first (setup)');
        return createRedisStore({ url: redis.url });
      },
      setup: async () => {
        redis = await startRedis();
      },
      teardown: async () => {
        await redis?.stop();
        redis = undefined;
      },
    });
  }
  return kinds;
}
