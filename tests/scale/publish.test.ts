/**
 * Publishing an edit without a full build: a build kept alive (astro-build-child.ts
 * with BUILD_PUBLISHER=1, over IPC) reads the edited product, renders pages again into its
 * release, and every page it renders has the bytes a fresh full build of the same data gives;
 * so do the release's listings (the listing views' data).
 * One sandbox, two builds: the kept-alive one (A), edited, then a fresh one (B) to compare with.
 * A renders with a render thread and B without (parallel-prerender.ts), so the comparison also
 * holds a thread's pages to the main thread's, byte for byte.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../scripts/lib/run.ts';
import { ensureUpstream, type Upstream } from '../../scripts/lib/upstream.ts';
import type { PublisherReply } from '../../src/server/publish/publisher-loop.ts';
import { PRODUCTS } from '@literie/sandbox/fixtures';
import { publishEntryField } from '@literie/sandbox/editor';
import { LISTING_STORE_FILE, openListingStore } from '../../src/shop/loaders/listing-store.ts';
import { freePort } from '../../src/server/free-port.ts';

const distA = 'dist-publish-a';
const distB = 'dist-publish-b';

/** Every file of a client folder, as paths relative to it. */
function files(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(root, full) : [path.relative(root, full)];
  });
}

/** The picture files of a client folder (Astro's optimised images in `_astro/`). */
function pictureFiles(client: string): string[] {
  return readdirSync(path.join(client, '_astro'))
    .filter((name) => /\.(webp|avif|jpe?g|png)$/.test(name))
    .map((name) => path.join('_astro', name));
}

/** The shop path of a pre-rendered page's file (`c/matelas.html` → `/c/matelas`). */
function pagePath(file: string): string {
  if (file === 'index.html') return '/';
  return file.endsWith('.html') ? `/${file.slice(0, -'.html'.length)}` : `/${file}`;
}

describe('a kept-alive build publishes an edit with the bytes of a full build', () => {
  let upstream: Upstream | null = null;
  let running: ChildProcess | null = null;
  const child = (): ChildProcess => {
    if (running === null) throw new Error('the kept-alive build did not start');
    return running;
  };
  let work = '';
  const replies: PublisherReply[] = [];
  let outputA = '';
  let admin: (method: string, apiPath: string, body?: unknown) => Promise<unknown>;
  let sandboxUrl = '';

  const reply = (predicate: (r: PublisherReply) => boolean) =>
    new Promise<PublisherReply>((resolve, reject) => {
      const found = replies.find(predicate);
      if (found) {
        resolve(found);
        return;
      }
      const onMessage = (message: PublisherReply) => {
        if (predicate(message)) {
          child().off('message', onMessage);
          resolve(message);
        }
      };
      child().on('message', onMessage);
      child().once('exit', (code) => {
        reject(new Error(`the build exited (${code})`));
      });
    });

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'shop-publish-'));
    const port = await freePort();
    upstream = await ensureUpstream({ port, dataDir: path.join(work, 'sandbox') });
    sandboxUrl = `http://127.0.0.1:${String(port)}`;
    admin = async (method, apiPath, body) => {
      const response = await fetch(`http://127.0.0.1:${port}/stores/sandbox/${apiPath}`, {
        method,
        headers: { 'X-Auth-Token': 'sandbox-token', 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(response.ok).toBe(true);
      return (await response.json()) as unknown;
    };
    rmSync(distA, { recursive: true, force: true });
    running = spawn(process.execPath, ['scripts/lib/astro-build-child.ts', path.resolve(distA)], {
      env: {
        ...upstream.env,
        BUILD_PUBLISHER: '1',
        BUILD_CACHE_DIR: path.join(work, 'cache'),
        // A renders on a thread beside the main one, B (below) on the main thread alone: the
        // same bytes either way (parallel-prerender.ts).
        BUILD_RENDER_THREADS: '1',
      },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    running.stdout?.on('data', (chunk: Buffer) => {
      outputA += chunk.toString();
      process.stdout.write(chunk);
    });
    running.on('message', (message: PublisherReply) => replies.push(message));
    await reply((r) => r.type === 'publisher-ready');
  }, 600_000);

  afterAll(async () => {
    const proc = running;
    if (proc?.exitCode === null) {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.send({ type: 'stop' });
      await exited;
    }
    await upstream?.close();
    if (process.env.KEEP_PUBLISH_DIRS === '1') return;
    rmSync(distA, { recursive: true, force: true });
    rmSync(distB, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  test('the kept build rendered pages on a render thread too', () => {
    const line = /\[prerender\] (\d+) of (\d+) pages rendered by 1 render thread/.exec(outputA);
    expect(line, outputA.slice(-2000)).not.toBeNull();
    // A small site: the thread joins once the main thread's first pages have read the data.
    expect(Number(line?.[1])).toBeGreaterThan(0);
  });

  test('a product and a content edit are published as a handful of pages, and the site equals a fresh build', async () => {
    const clientA = path.join(distA, 'client');
    const clientB = path.join(distB, 'client');
    const product = PRODUCTS.trackingVariant;
    const oldPage = `/p/${product}/matelas-elysee`;
    const pagesOf = (client: string) =>
      files(client)
        .filter((file) => file.endsWith('.html') || file === 'sitemap-listings.xml')
        .map(pagePath)
        .sort();
    const pagesBefore = pagesOf(clientA);
    expect(pagesBefore).toContain(oldPage);
    const picturesBefore = new Set(pictureFiles(clientA));
    // A new name gives a new slug: the page moves. A new version of its main picture (a new
    // URL at the CDN, as BigCommerce's `?c=2`) is a picture no page of the build showed.
    const { data: current } = (await admin(
      'GET',
      `v3/catalog/products/${product}?include=images`,
    )) as { data: { images: { url_zoom: string; is_thumbnail: boolean }[] } };
    expect(current.images.length).toBeGreaterThan(0);
    await admin('PUT', `v3/catalog/products/${product}`, {
      name: 'Matelas Élysée Édition Hiver',
      price: 1234.5,
      images: current.images.map((image, index) => ({
        image_url: index === 0 ? `${image.url_zoom}?c=2` : image.url_zoom,
        is_thumbnail: image.is_thumbnail,
      })),
    });
    // A content page's description: its page only (its title is every page's footer link).
    await publishEntryField(
      sandboxUrl,
      'page-cgv',
      'description',
      'Nos conditions de vente, mises à jour pour 2027.',
    );

    rmSync(distB, { recursive: true, force: true });
    const built = await run(process.execPath, ['scripts/build.ts', '--out-dir', distB], {
      // This test's sandbox, through its credentials: npm test's UPSTREAM=sandbox would have
      // the build start (or reuse) the suite's own sandbox instead.
      env: {
        ...upstream?.env,
        UPSTREAM: '',
        BUILD_CACHE_DIR: path.join(work, 'cache-b'),
        BUILD_RENDER_THREADS: '0',
      },
      capture: true,
    });
    expect(built.code, built.stdout).toBe(0);
    const pagesAfter = pagesOf(clientB);
    // Its page after the edit (a new name moves it, unless its address were a custom one).
    const newPage = pagesAfter.find((page) => page.startsWith(`/p/${String(product)}/`));
    expect(newPage).toBeDefined();
    if (newPage === undefined) return;
    const moved = newPage !== oldPage;

    // The kept build decides which pages the edit touches, renders them, removes the old one.
    child().send({
      type: 'publish',
      id: 1,
      edits: [
        { resource: 'product', id: product },
        { resource: 'content', topic: 'Entry.publish', id: 'page-cgv' },
      ],
    });
    const published = await reply((r) => 'id' in r && r.id === 1);
    expect(published.type, JSON.stringify(published)).toBe('published');
    if (published.type !== 'published') return;
    expect(published.removed).toEqual(moved ? [oldPage] : []);
    expect(published.written).toContain(newPage);
    expect(published.written).toContain('/c/matelas');
    expect(published.written).toContain('/cgv');
    expect(readFileSync(path.join(clientA, 'cgv.html'), 'utf8')).toContain(
      'Nos conditions de vente, mises à jour pour 2027.',
    );
    // Far fewer pages than the site has.
    expect(published.written.length).toBeLessThan(pagesAfter.length / 4);
    expect(readFileSync(path.join(clientA, `${newPage.slice(1)}.html`), 'utf8')).toContain(
      'Matelas Élysée Édition Hiver',
    );
    // The sitemaps follow the reply (written once the publishes pause, SITEMAP_TIMING).
    for (const sitemap of ['sitemap-0.xml', 'sitemap-index.xml']) {
      await expect
        .poll(() => readFileSync(path.join(clientA, sitemap), 'utf8'), {
          message: sitemap,
          timeout: 10_000,
        })
        .toBe(readFileSync(path.join(clientB, sitemap), 'utf8'));
    }

    expect(pagesOf(clientA)).toEqual(pagesAfter);
    /** The pages whose files differ between the kept build's release and the fresh build. */
    const differing = () =>
      pagesAfter.filter((page) => {
        const file =
          page === '/'
            ? 'index.html'
            : page.endsWith('.xml')
              ? page.slice(1)
              : `${page.slice(1)}.html`;
        return !readFileSync(path.join(clientA, file)).equals(
          readFileSync(path.join(clientB, file)),
        );
      });
    expect(differing()).toEqual([]);
    expect(pagesAfter.length).toBeGreaterThan(200);

    // The new picture was encoded into A's release by the publish, as the fresh build did:
    // every picture file of B is in A with the same bytes (A keeps the old version's too).
    const newPictures = pictureFiles(clientA).filter((file) => !picturesBefore.has(file));
    expect(newPictures.length).toBeGreaterThan(0);
    // The reply names them (a deployment behind a CDN uploads them).
    expect([...published.pictures].sort()).toEqual(newPictures.sort());
    for (const file of pictureFiles(clientB)) {
      expect(
        readFileSync(path.join(clientA, file)).equals(readFileSync(path.join(clientB, file))),
        file,
      ).toBe(true);
    }
    expect(readFileSync(path.join(clientA, `${newPage.slice(1)}.html`), 'utf8')).not.toContain(
      '/_image?',
    );

    // The release's picture table (what on-demand pages show) has every picture of B's, the
    // new one included, with B's URLs.
    const pictureRows = (dist: string) => {
      const db = new DatabaseSync(path.join(dist, 'server', LISTING_STORE_FILE), {
        readOnly: true,
      });
      try {
        return db.prepare('SELECT key, url FROM pictures').all() as { key: string; url: string }[];
      } finally {
        db.close();
      }
    };
    const rowsA = new Map(pictureRows(distA).map((row) => [row.key, row.url]));
    const rowsB = pictureRows(distB);
    expect(rowsB.length).toBeGreaterThan(100);
    for (const { key, url } of rowsB) expect(rowsA.get(key), key).toBe(url);
    const newUrls = new Set(newPictures.map((file) => `/${file}`));
    expect([...rowsA.values()].filter((url) => newUrls.has(url)).sort()).toEqual(
      [...newUrls].sort(),
    );

    // The release's listings (what its listing views render from) equal the fresh build's.
    const [listingsA, listingsB] = [distA, distB].map((dist) =>
      openListingStore(path.join(dist, 'server', LISTING_STORE_FILE)),
    );
    try {
      const listings = pagesAfter.filter((page) => page.startsWith('/c/'));
      expect(listings.length).toBeGreaterThan(10);
      for (const page of listings) {
        expect(listingsA?.listing(page), page).toEqual(listingsB?.listing(page));
      }
      expect(listingsA?.listing('/c/matelas')?.products.find((p) => p.id === product)?.name).toBe(
        'Matelas Élysée Édition Hiver',
      );
    } finally {
      listingsA?.close();
      listingsB?.close();
    }

    // Rendering every page again changes none: the publish left nothing stale.
    child().send({ type: 'render', id: 2, render: pagesAfter, remove: [] });
    const again = await reply((r) => 'id' in r && r.id === 2);
    expect(again.type, JSON.stringify(again)).toBe('published');
    expect(differing()).toEqual([]);
  }, 600_000);
});
