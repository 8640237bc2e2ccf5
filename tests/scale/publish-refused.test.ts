/**
 * Bad values on a real build and its kept publisher: content cannot claim the shop's routes, and
 * one bad value never stops publishing. A sandbox of its own gets those values through
 * its catalogue writes and content management API: a content page `index` and one
 * `espace-revendeur`, a category whose `custom_url` has `..` segments, a product named with
 * 130 "œ", a product whose picture answers 404. The full build succeeds with everything else
 * live and each bad entity logged; then edits that bring more such values are published
 * (another picture that answers 404, the content page `index` published again then
 * unpublished) beside a plain rename, which goes live; the home page is never touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { PublisherReply } from '../../src/server/publish/publisher-loop.ts';
import { SANDBOX_CONTENTFUL, ensureUpstream, type Upstream } from '../../scripts/lib/upstream.ts';
import { MAX_SLUG_LENGTH } from '../../src/lib/shop-routes.ts';
import { freePort } from '../../src/server/free-port.ts';

const dist = 'dist-publish-refused';
const client = path.join(dist, 'client');

describe('bad upstream values neither claim a route nor stop a build or a publish', () => {
  let upstream: Upstream | null = null;
  let running: ChildProcess | null = null;
  let work = '';
  let output = '';
  let sandboxUrl = '';
  const replies: PublisherReply[] = [];
  const ids = { long: 0, broken: 0, renamed: 0, dots: 0, svg: 0, damaged: 0 };

  const child = (): ChildProcess => {
    if (running === null) throw new Error('the kept-alive build did not start');
    return running;
  };
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
        reject(new Error(`the build exited (${String(code)})\n${output.slice(-3000)}`));
      });
    });

  const admin = async (method: string, apiPath: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${sandboxUrl}/stores/sandbox/v3/${apiPath}`, {
      method,
      headers: { 'X-Auth-Token': 'sandbox-token', 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.ok, `${method} ${apiPath}: ${await response.clone().text()}`).toBe(true);
    return (await response.json()) as unknown;
  };
  const entries = () =>
    `${sandboxUrl}/contentful-management/spaces/${SANDBOX_CONTENTFUL.spaceId}/environments/${SANDBOX_CONTENTFUL.environment}/entries`;
  const auth = { authorization: `Bearer ${SANDBOX_CONTENTFUL.managementToken}` };
  const contentPage = async (id: string, slug: string): Promise<void> => {
    const put = await fetch(`${entries()}/${id}`, {
      method: 'PUT',
      headers: { ...auth, 'X-Contentful-Content-Type': 'contentPage' },
      body: JSON.stringify({
        fields: { title: { fr: `Prise de ${slug}` }, slug: { fr: slug }, description: { fr: 'x' } },
      }),
    });
    expect(put.ok).toBe(true);
    const published = await fetch(`${entries()}/${id}/published`, { method: 'PUT', headers: auth });
    expect(published.ok).toBe(true);
  };
  /** Resolves once the build's output (stdout and stderr, which may come after a reply) matches. */
  const waitForOutput = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(output)) return false;
        child().stdout?.off('data', check);
        child().stderr?.off('data', check);
        resolve();
        return true;
      };
      if (check()) return;
      child().stdout?.on('data', check);
      child().stderr?.on('data', check);
      child().once('exit', () => {
        reject(new Error(`the build exited before printing ${String(pattern)}`));
      });
    });
  const productFile = (id: number) => {
    const folder = path.join(client, 'p', String(id));
    const files = existsSync(folder) ? readdirSync(folder) : [];
    return files.length === 1 ? path.join(folder, files[0] ?? '') : null;
  };

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'shop-refused-'));
    const port = await freePort();
    upstream = await ensureUpstream({ port, dataDir: path.join(work, 'sandbox') });
    sandboxUrl = `http://127.0.0.1:${String(port)}`;

    const categories = (
      (await admin('GET', 'catalog/categories?limit=250')) as {
        data: { id: number; parent_id: number }[];
      }
    ).data;
    const leaves = categories.filter(
      (c) => c.parent_id !== 0 && !categories.some((d) => d.parent_id === c.id),
    );
    const [dots, plain] = leaves;
    if (dots === undefined || plain === undefined) throw new Error('the seed has two leaves');
    ids.dots = dots.id;
    await admin('PUT', `catalog/categories/${String(dots.id)}`, {
      custom_url: { url: '/matelas/../../panier/' },
    });
    const product = (name: string, image: string) => ({
      name,
      type: 'physical',
      weight: 1,
      price: 249,
      categories: [plain.id],
      images: [{ image_url: image, is_thumbnail: true }],
    });
    const created = async (name: string, image: string) =>
      ((await admin('POST', 'catalog/products', product(name, image))) as { data: { id: number } })
        .data.id;
    ids.long = await created('œ'.repeat(130), '/images/pas-de-photo-longue.jpg');
    ids.broken = await created('Matelas Essai Photo Absente', '/images/introuvable.jpg');
    ids.renamed = await created('Matelas Essai Zéphyr', '/images/introuvable-aussi.jpg');
    // Pictures that answer 200 but are no picture Astro's image step can encode: an SVG with a
    // script (named .jpg, served as a JPEG) and a PNG signature with no picture after it.
    const folder = path.join(work, 'sandbox', 'images', '1x1');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'piege-svg.jpg'),
      '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800"><script>alert(1)</script></svg>',
    );
    writeFileSync(
      path.join(folder, 'png-tronque.jpg'),
      Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.from('pas un PNG : son en-tete manque'),
      ]),
    );
    ids.svg = await created('Matelas Essai Photo Vectorielle', '/images/1x1/piege-svg.jpg');
    ids.damaged = await created('Matelas Essai Photo Tronquée', '/images/1x1/png-tronque.jpg');
    await contentPage('prise-accueil', 'index');
    await contentPage('prise-revendeur', 'espace-revendeur');

    rmSync(dist, { recursive: true, force: true });
    running = spawn(process.execPath, ['scripts/lib/astro-build-child.ts', path.resolve(dist)], {
      env: {
        ...upstream.env,
        BUILD_PUBLISHER: '1',
        BUILD_CACHE_DIR: path.join(work, 'cache'),
        FEATURE_RESELLER_AREA: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    running.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    running.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
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
    rmSync(dist, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  test('the full build succeeds; the bad entities are left out or shown without their picture, and logged', async () => {
    // The home page is the shop's, and no content page took a route of the shop.
    const home = readFileSync(path.join(client, 'index.html'), 'utf8');
    expect(home).not.toContain('Prise de');
    expect(existsSync(path.join(client, 'index', 'index.html'))).toBe(false);
    expect(existsSync(path.join(client, 'espace-revendeur.html'))).toBe(false);
    expect(output).toContain('[refused] content page prise-accueil left out');
    expect(output).toContain('[refused] content page prise-revendeur left out');
    // The category with dot segments has no listing; the others do.
    expect(output).toMatch(
      new RegExp(`\\[refused\\] category ${String(ids.dots)} left out: .*dot segment`),
    );
    expect(existsSync(path.join(client, 'panier.html'))).toBe(false);
    expect(existsSync(path.join(client, 'c', 'matelas.html'))).toBe(true);
    // 130 "œ": a page whose file name is within the cap.
    const long = productFile(ids.long);
    expect(long).not.toBeNull();
    expect(path.basename(long ?? '', '.html').length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    // The 404 picture: the page names a picture file, which holds the placeholder; logged.
    const page = readFileSync(productFile(ids.broken) ?? '', 'utf8');
    const pictures = [...new Set(page.match(/\/_astro\/introuvable_[\w-]+\.webp/g) ?? [])];
    expect(pictures.length).toBeGreaterThan(0);
    for (const picture of pictures) {
      const metadata = await sharp(path.join(client, picture)).metadata();
      expect(metadata.format).toBe('webp');
    }
    expect(output).toMatch(
      new RegExp(
        `\\[refused\\] picture of product ${String(ids.broken)} ".*introuvable\\.jpg" left out: answered 404`,
      ),
    );
    // A picture that answers but is an SVG, or a PNG cut short: the placeholder, encoded to
    // WebP (never the SVG's bytes), and one line each.
    for (const [id, name, reason] of [
      [ids.svg, 'piege-svg', 'is not a raster picture'],
      [ids.damaged, 'png-tronque', 'could not be encoded'],
    ] as const) {
      const shown = readFileSync(productFile(id) ?? '', 'utf8');
      const files = [
        ...new Set(shown.match(new RegExp(`/_astro/${name}_[\\w-]+\\.webp`, 'g')) ?? []),
      ];
      expect(files.length, name).toBeGreaterThan(0);
      for (const file of files) {
        const bytes = readFileSync(path.join(client, file));
        expect(bytes.includes('<script>'), file).toBe(false);
        expect((await sharp(bytes).metadata()).format).toBe('webp');
      }
      expect(output).toMatch(
        new RegExp(
          `\\[refused\\] picture of product ${String(id)} ".*${name}\\.jpg" left out: ${reason}`,
        ),
      );
    }
  });

  test('a publish with a 404 picture and the content page index goes live for the rest, never touching the home page', async () => {
    const home = readFileSync(path.join(client, 'index.html'));
    // A rename beside a new picture that answers 404, and the content page `index` again.
    await admin('PUT', `catalog/products/${String(ids.renamed)}`, {
      name: 'Matelas Essai Zéphyr Boréal',
      images: [{ image_url: '/images/encore-introuvable.jpg', is_thumbnail: true }],
    });
    await contentPage('prise-accueil', 'index');
    child().send({
      type: 'publish',
      id: 1,
      edits: [
        { resource: 'product', id: ids.renamed },
        { resource: 'content', topic: 'Entry.publish', id: 'prise-accueil' },
      ],
    });
    const published = await reply((r) => 'id' in r && r.id === 1);
    expect(published.type, JSON.stringify(published)).toBe('published');
    if (published.type !== 'published') return;
    const renamed = productFile(ids.renamed);
    expect(renamed).toMatch(/matelas-essai-zephyr-boreal\.html$/);
    expect(readFileSync(renamed ?? '', 'utf8')).toContain('Matelas Essai Zéphyr Boréal');
    expect(published.written).not.toContain('/index');
    expect(readFileSync(path.join(client, 'index.html')).equals(home)).toBe(true);
    // Its picture file is there (the placeholder), and the line names it.
    const pictures = [
      ...new Set(
        readFileSync(renamed ?? '', 'utf8').match(/\/_astro\/encore-introuvable_[\w-]+\.webp/g) ??
          [],
      ),
    ];
    expect(pictures.length).toBeGreaterThan(0);
    for (const picture of pictures) expect(existsSync(path.join(client, picture))).toBe(true);
    expect(published.pictures.length).toBeGreaterThan(0);
    await waitForOutput(/\[refused\] picture .*encore-introuvable\.jpg" left out: .*answered 404/);

    // Unpublished: the home page stays.
    const gone = await fetch(`${entries()}/prise-accueil/published`, {
      method: 'DELETE',
      headers: auth,
    });
    expect(gone.ok).toBe(true);
    child().send({
      type: 'publish',
      id: 2,
      edits: [{ resource: 'content', topic: 'Entry.unpublish', id: 'prise-accueil' }],
    });
    const unpublished = await reply((r) => 'id' in r && r.id === 2);
    expect(['published', 'publish-full']).toContain(unpublished.type);
    expect(readFileSync(path.join(client, 'index.html')).equals(home)).toBe(true);
  });
});
