/**
 * A publish that meets an upstream 503 is retried until it is live, end to end:
 * `npm start` on its own sandbox, its build and releases in a folder outside the repository.
 * While the sandbox's products list answers 503 (its fault injection, GETs only), a product is
 * renamed: the kept build's publish fails on it, the status says `retrying` with the failing
 * call, the kept build stays and the release stays. Once the upstream answers again, the retry
 * publishes the rename into the same release, and the old product URL, which the server had
 * looked up before, answers 301 to the new one at once (a publish clears the product-path
 * lookup). Run by `npm test` after the build (vitest project `scale`); by hand:
 * `npx vitest run --project scale tests/scale/publish-retry.test.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { PRODUCTS } from '@literie/sandbox/fixtures';
import type { RebuildStatus } from '../../src/server/rebuild/supervisor.ts';
import { freePort } from '../../src/server/free-port.ts';
import { withoutSuiteServices } from './helpers/shop.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const AUTH = { 'x-auth-token': 'sandbox-token', 'content-type': 'application/json' };

describe('a publish during an upstream outage', () => {
  let work = '';
  let shop: ChildProcess | null = null;
  let output = '';
  let base = '';
  let sandboxUrl = '';

  const status = async () =>
    (await (await fetch(`${base}/webhooks/status`)).json()) as RebuildStatus;

  /** The status once `done` says so (polled; fails past `ms`). */
  async function statusWhen(done: (s: RebuildStatus) => boolean, ms: number) {
    const started = Date.now();
    let last = await status();
    while (!done(last)) {
      if (Date.now() - started > ms) throw new Error(`${JSON.stringify(last)}\n${output}`);
      await sleep(100);
      last = await status();
    }
    return last;
  }

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'shop-publish-retry-'));
    const [port, sandboxPort] = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${String(port)}`;
    sandboxUrl = `http://127.0.0.1:${String(sandboxPort)}`;
    const env: NodeJS.ProcessEnv = {
      ...withoutSuiteServices(),
      UPSTREAM: 'sandbox',
      PORT: String(port),
      HOST: '127.0.0.1',
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_DIR: path.join(work, 'sandbox'),
      SANDBOX_SITE_URL: base,
      DIST_DIR: path.join(work, 'dist'),
      RELEASES_DIR: path.join(work, 'releases'),
      STATE_DIR: path.join(work, 'state'),
      BUILD_CACHE_DIR: path.join(work, 'cache'),
      REBUILD_DEBOUNCE_MS: '100',
      FULL_BUILD_EVERY_HOURS: '0',
    };
    shop = spawn(process.execPath, ['scripts/start.ts'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => (output += chunk.toString());
    shop.stdout?.on('data', collect);
    shop.stderr?.on('data', collect);
    const deadline = Date.now() + 540_000;
    while (!/sandbox webhooks? (registered|not registered)/.test(output)) {
      if (shop.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
      if (Date.now() > deadline) throw new Error(`npm start did not start:\n${output}`);
      await sleep(200);
    }
    expect(output).not.toContain('not registered');
  }, 600_000);

  afterAll(async () => {
    const proc = shop;
    if (proc?.exitCode === null) {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await Promise.race([exited, sleep(20_000)]);
    }
    rmSync(work, { recursive: true, force: true });
  });

  test('retried until live; the old URL answers 301 right after', async () => {
    const id = PRODUCTS.trackingNone;
    const productUrl = `${sandboxUrl}/stores/sandbox/v3/catalog/products/${String(id)}`;
    const { data: product } = (await (await fetch(productUrl, { headers: AUTH })).json()) as {
      data: { id: number; name: string };
    };
    const oldPath = productPath(product);
    // The server looks the product's path up once (an outdated slug) and keeps it.
    const looked = await fetch(`${base}/p/${String(id)}/ancien-nom`, { redirect: 'manual' });
    expect(looked.status).toBe(301);
    expect(looked.headers.get('location')).toMatch(new RegExp(`${oldPath}$`));
    const before = await status();

    const fault = await fetch(`${sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({
        match: '/stores/sandbox/v3/catalog/products',
        method: 'GET',
        status: 503,
      }),
    });
    expect(fault.status).toBe(201);
    const name = `${product.name} Nouvelle Saison`;
    const put = await fetch(productUrl, {
      method: 'PUT',
      headers: AUTH,
      body: JSON.stringify({ name }),
    });
    expect(put.status).toBe(200);

    const retrying = await statusWhen((s) => s.state === 'retrying', 30_000);
    expect(retrying.retry?.attempts).toBeGreaterThanOrEqual(1);
    expect(retrying.retry?.cause).toMatch(/GET v3\/catalog\/products/);
    expect(retrying.retry?.cause).not.toMatch(/\bat\s/);
    expect(retrying.lastBuild).toMatchObject({ kind: 'publish', result: 'failed' });
    expect(retrying.current.id).toBe(before.current.id);

    const cleared = await fetch(`${sandboxUrl}/__sandbox/faults`, {
      method: 'DELETE',
      headers: AUTH,
    });
    expect(cleared.status).toBeLessThan(300);
    const live = await statusWhen(
      (s) =>
        s.state === 'idle' && s.lastBuild?.kind === 'publish' && s.lastBuild.result === 'succeeded',
      60_000,
    );
    expect(live.retry).toBeNull();
    expect(live.current.id, 'no full build: the kept build stayed').toBe(before.current.id);
    const newPath = productPath({ id, name });
    const page = await fetch(`${base}${newPath}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(name);
    const moved = await fetch(`${base}${oldPath}`, { redirect: 'manual' });
    expect(moved.status, output).toBe(301);
    expect(moved.headers.get('location')).toMatch(new RegExp(`${newPath}$`));
    console.log(
      `[publish-retry] ${String(live.builds - before.builds)} attempt(s); live after the outage, old URL 301`,
    );
  }, 180_000);
});
