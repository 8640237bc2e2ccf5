/**
 * An edit live in seconds, end to end: `npm start` on its own sandbox, its build and
 * releases in a folder outside the repository. The build `npm start` makes stays alive; a
 * product renamed in the sandbox's catalogue API sends the signed store webhook to the shop,
 * the supervisor hands the edit to the kept build, which renders the pages it touches into the
 * live release, and the servers forget their rendered listing views. Under load on the pages
 * around it, not one request fails; the new name is on its page, its category and a listing
 * view within 10 s; the release is the same (no full build ran) and the status says `publish`.
 * Then a content editor's fix (a page's description, through the Contentful webhook) is live too,
 * and so are a legal page's new title, a new content page and its unpublishing, each a publish
 * into the same release (the sitemap written again when a page comes or goes).
 * Run by `npm test` after the build (vitest project `scale`); by hand:
 * `npx vitest run --project scale tests/scale/publish-live.test.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import autocannon from 'autocannon';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PRODUCTS } from '@literie/sandbox/fixtures';
import { publishEntryField, publishNewEntry, unpublishEntry } from '@literie/sandbox/editor';
import type { RebuildStatus } from '../../src/server/rebuild/supervisor.ts';
import { freePort } from '../../src/server/free-port.ts';
import { withoutSuiteServices } from './helpers/shop.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const HEADERS = { 'accept-encoding': 'br, gzip', accept: 'text/html' };
const NEW_NAME = 'Matelas Élysée Édition Printemps';

describe('an edit published into the running shop', () => {
  let work = '';
  let shop: ChildProcess | null = null;
  let output = '';
  let base = '';
  let sandboxUrl = '';

  const status = async () =>
    (await (await fetch(`${base}/webhooks/status`)).json()) as RebuildStatus;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'shop-publish-live-'));
    const [port, sandboxPort] = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${String(port)}`;
    sandboxUrl = `http://127.0.0.1:${String(sandboxPort)}`;
    // start.ts makes its own secrets and registers them with its sandbox.
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

  test('a renamed product is live in seconds, with no full build and no failed request', async () => {
    const product = PRODUCTS.trackingVariant;
    const oldPage = `/p/${String(product)}/matelas-elysee`;
    // Pages around the edit: the category listing it, a listing view and search results
    // rendered on demand (and cached), the home page.
    const views = ['/c/matelas', '/c/matelas?sort=2', '/resultats-de-recherche/elysee'];
    for (const page of [...views, oldPage]) {
      const response = await fetch(`${base}${page}`, { headers: HEADERS });
      expect(response.status, page).toBe(200);
      expect(await response.text(), page).toContain('Matelas Élysée');
    }
    const before = await status();
    expect(before.lastBuild).toBeNull();

    const failures: string[] = [];
    const load = autocannon(
      {
        url: base,
        connections: 10,
        duration: 600,
        overallRate: 100,
        timeout: 10,
        // The product's own page too: 200 until the edit, then 301 to its new address (its
        // name makes it), never an error while the file goes away.
        requests: ['/', ...views, oldPage].map((page) => ({ path: page, headers: HEADERS })),
      },
      (error: Error | null) => {
        if (error) failures.push(error.message);
      },
    );
    let answered = 0;
    load.on('response', (_client: unknown, statusCode: number) => {
      answered += 1;
      if (statusCode !== 200 && statusCode !== 301) failures.push(`status ${String(statusCode)}`);
    });
    load.on('reqError', (error: Error) => failures.push(error.message));
    await sleep(2_000);

    const edited = Date.now();
    const put = await fetch(`${sandboxUrl}/stores/sandbox/v3/catalog/products/${String(product)}`, {
      method: 'PUT',
      headers: { 'x-auth-token': 'sandbox-token', 'content-type': 'application/json' },
      body: JSON.stringify({ name: NEW_NAME }),
    });
    expect(put.status).toBe(200);

    // Live: every view shows the new name (the old page moved: its name gives its address).
    const newPage = `/p/${String(product)}/matelas-elysee-edition-printemps`;
    let liveMs = Number.NaN;
    let stale: string[] = [];
    while (Date.now() - edited < 30_000) {
      const pages = await Promise.all(
        [newPage, ...views].map(async (page) => {
          const response = await fetch(`${base}${page}`, { headers: HEADERS });
          const live = response.status === 200 && (await response.text()).includes(NEW_NAME);
          return live ? null : `${page} (${String(response.status)})`;
        }),
      );
      stale = pages.filter((page) => page !== null);
      if (stale.length === 0) {
        liveMs = Date.now() - edited;
        break;
      }
      await sleep(100);
    }
    await sleep(2_000);
    load.stop();

    expect(stale, output).toEqual([]);
    expect(liveMs).toBeLessThanOrEqual(10_000);
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(100);
    const moved = await fetch(`${base}${oldPage}`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toMatch(new RegExp(`${newPage}$`));

    const after = await status();
    expect(after.current.id, 'no new release: the edit went into the live one').toBe(
      before.current.id,
    );
    expect(after.lastBuild).toMatchObject({ kind: 'publish', result: 'succeeded' });
    expect(after.lastBuild?.pages?.written).toBeGreaterThan(0);
    expect(after.lastBuild?.pages?.removed).toBe(1);

    // A content editor's fix, through the sandbox's Contentful webhook: published the same way.
    const description = 'Les conditions de vente de Literie Lumière, relues pour 2027.';
    const contentEdited = Date.now();
    await publishEntryField(sandboxUrl, 'page-cgv', 'description', description);
    let contentLiveMs = Number.NaN;
    while (Date.now() - contentEdited < 30_000) {
      const html = await (await fetch(`${base}/cgv`, { headers: HEADERS })).text();
      if (html.includes(description)) {
        contentLiveMs = Date.now() - contentEdited;
        break;
      }
      await sleep(100);
    }
    expect(contentLiveMs, output).toBeLessThanOrEqual(10_000);
    // A page is live once its file is renamed in, a moment before the supervisor has pointed
    // the release at its new publish count and written the status: wait for that moment.
    let last = await status();
    const settled = Date.now();
    while (last.lastBuild?.result === 'running' && Date.now() - settled < 5_000) {
      await sleep(50);
      last = await status();
    }
    expect(last.current.id).toBe(before.current.id);
    expect(last.lastBuild).toMatchObject({ kind: 'publish', result: 'succeeded' });
    console.log(
      `[publish-live] content edit live in ${String(contentLiveMs)} ms (publish ${String(last.lastBuild?.durationMs)} ms, ${String(last.lastBuild?.pages?.written)} pages)`,
    );
    console.log(
      `[publish-live] edit live in ${String(liveMs)} ms (publish ${String(after.lastBuild?.durationMs)} ms, ${String(after.lastBuild?.pages?.written)} pages), ${String(answered)} requests under load, 0 failed`,
    );
  }, 180_000);

  /** Waits until `page` answers `statusCode` with `text` in it: the ms it took, NaN past 30 s. */
  async function liveIn(page: string, statusCode: number, text: string): Promise<number> {
    const from = Date.now();
    while (Date.now() - from < 30_000) {
      const response = await fetch(`${base}${page}`, { headers: HEADERS });
      const html = await response.text();
      if (response.status === statusCode && html.includes(text)) return Date.now() - from;
      await sleep(100);
    }
    return Number.NaN;
  }

  /**
   * The status once a build or publish after the `count` th has written its record: a page can
   * be live before its publish (a new content page renders on demand meanwhile).
   */
  async function recordedAfter(count: number): Promise<RebuildStatus> {
    let last = await status();
    const from = Date.now();
    while (
      (last.builds <= count || last.lastBuild?.result === 'running' || last.queuedEvents > 0) &&
      Date.now() - from < 30_000
    ) {
      await sleep(50);
      last = await status();
    }
    return last;
  }

  test('content pages published, retitled and unpublished: each a publish, live in seconds', async () => {
    const release = (await status()).current.id;
    // As a crawler asks for it: compressed (the build's compressed copy must not be served stale).
    const sitemap = async () =>
      (await fetch(`${base}/sitemap-0.xml`, { headers: { 'accept-encoding': 'br, gzip' } })).text();

    // A legal page's new title: the footer shows its fixed label, so its page alone changes.
    const title = 'Conditions générales de vente (version 2027)';
    let builds = (await status()).builds;
    await publishEntryField(sandboxUrl, 'page-cgv', 'title', title);
    expect(await liveIn('/cgv', 200, title), output).toBeLessThanOrEqual(10_000);
    let last = await recordedAfter(builds);
    expect(last.builds).toBe(builds + 1);
    expect(last.current.id).toBe(release);
    expect(last.lastBuild).toMatchObject({
      kind: 'publish',
      result: 'succeeded',
      pages: { written: 1, removed: 0 },
    });
    expect(await (await fetch(`${base}/`, { headers: HEADERS })).text()).not.toContain(title);

    // A new content page, linked from no navigation: its page written, the sitemap too.
    builds = last.builds;
    await publishNewEntry(sandboxUrl, 'page-nos-engagements', 'contentPage', {
      title: 'Nos engagements',
      slug: 'nos-engagements',
      description: 'Ce que Literie Lumière promet à chaque client.',
    });
    expect(await liveIn('/nos-engagements', 200, 'Nos engagements'), output).toBeLessThanOrEqual(
      10_000,
    );
    last = await recordedAfter(builds);
    expect(last.builds).toBe(builds + 1);
    expect(last.current.id).toBe(release);
    expect(last.lastBuild).toMatchObject({ kind: 'publish', result: 'succeeded' });
    // Written once the publishes pause (SITEMAP_TIMING, 2 s); the server looks at a static file
    // again at most a second later.
    await expect.poll(sitemap, { timeout: 10_000 }).toContain('/nos-engagements');

    // Unpublished: its page removed (404, the shop's own page), the sitemap without it.
    builds = last.builds;
    await unpublishEntry(sandboxUrl, 'page-nos-engagements');
    expect(await liveIn('/nos-engagements', 404, '</html>'), output).toBeLessThanOrEqual(10_000);
    last = await recordedAfter(builds);
    expect(last.builds).toBe(builds + 1);
    expect(last.current.id).toBe(release);
    expect(last.lastBuild).toMatchObject({
      kind: 'publish',
      result: 'succeeded',
      pages: { removed: 1 },
    });
    await expect.poll(sitemap, { timeout: 10_000 }).not.toContain('/nos-engagements');
  }, 120_000);
});
