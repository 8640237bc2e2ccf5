/**
 * Bad values against the sandbox over real HTTP: the values that used to claim the shop's routes
 * or stop publishing are put in through the sandbox's catalogue writes and content management
 * API, and the reads a build and a publish make (`readCatalogue`, `getSiteContent`, the
 * picture probe and the publisher's picture encode) leave out or work around exactly those,
 * log each with its id and reason, and keep everything else:
 * - a content page `index`, `espace-revendeur` or `aide/../panier`;
 * - a category `custom_url` with `..` segments or in upper case; a brand `custom_url` naming
 *   `index`; a product named "Index";
 * - a product named with 130 "œ" (slug capped, kept);
 * - a product picture that answers 404, or whose host never answers (fault injection).
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { installPicturePublisher } from '../../src/server/publish/publish-pictures.ts';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { MAX_SLUG_LENGTH } from '../../src/lib/shop-routes.ts';
import type { AstroAssetScope } from '../../src/server/pictures/astro-asset.ts';
import {
  createBigCommerceClient,
  type BigCommerceClient,
} from '../../src/shop/connectors/bigcommerce/index.ts';
import {
  createContentfulClient,
  getSiteContent,
} from '../../src/shop/connectors/contentful/index.ts';
import { imageRemotePatterns } from '../../src/server/pictures/image-hosts.ts';
import { readCatalogue } from '../../src/shop/loaders/catalogue-source.ts';
import {
  PLACEHOLDER_PICTURE,
  probeRemotePicture,
} from '../../src/server/pictures/picture-fallback.ts';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';

let sandbox: TestSandbox;
let client: BigCommerceClient;
let lines: string[] = [];

type Json = Record<string, unknown>;

async function call(method: string, url: string, body?: unknown, headers: Json = {}) {
  const response = await fetch(url, {
    method,
    headers: {
      'X-Auth-Token': sandbox.token,
      'Content-Type': 'application/json',
      Accept: 'application/json',
      ...(headers as Record<string, string>),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, `${method} ${url}: ${text.slice(0, 300)}`).toBeLessThan(300);
  return (text === '' ? {} : JSON.parse(text)) as Json;
}

const v3 = (p: string) => `${sandbox.url}/stores/${sandbox.storeHash}/v3${p}`;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = createBigCommerceClient({
    apiUrl: sandbox.url,
    storeHash: sandbox.storeHash,
    accessToken: sandbox.token,
    channelId: 1,
  });
});

afterAll(async () => {
  await sandbox.close();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await call('DELETE', `${sandbox.url}/__sandbox/faults`);
});

function captureLog(): void {
  lines = [];
  vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
    lines.push(String(line));
  });
}

const logged = (what: string) => lines.filter((line) => line.includes(what));

describe('the catalogue a build and a publish read', () => {
  test('refused categories, brand and product are left out and logged; the long name is kept with a capped slug', async () => {
    const categories = (await call('GET', v3('/catalog/categories?limit=250'))).data as {
      id: number;
      parent_id: number;
    }[];
    const leaves = categories.filter(
      (c) => c.parent_id !== 0 && !categories.some((d) => d.parent_id === c.id),
    );
    const [dots, upper, plain] = leaves;
    if (dots === undefined || upper === undefined || plain === undefined) {
      throw new Error('the seed has three leaf categories');
    }
    await call('PUT', v3(`/catalog/categories/${String(dots.id)}`), {
      custom_url: { url: '/matelas/../../panier/' },
    });
    await call('PUT', v3(`/catalog/categories/${String(upper.id)}`), {
      custom_url: { url: '/MATELAS/x/' },
    });
    const brands = (await call('GET', v3('/catalog/brands?limit=250'))).data as { id: number }[];
    const brand = brands[0] as { id: number };
    await call('PUT', v3(`/catalog/brands/${String(brand.id)}`), {
      custom_url: { url: '/marque/index/' },
    });
    const product = (src: string, name: string) => ({
      name,
      type: 'physical',
      weight: 1,
      price: 199,
      categories: [plain.id],
      images: [{ image_url: src, is_thumbnail: true }],
    });
    const long = (
      await call('POST', v3('/catalog/products'), product('/images/x.jpg', 'œ'.repeat(130)))
    ).data as { id: number };
    const named = (await call('POST', v3('/catalog/products'), product('/images/y.jpg', 'Index')))
      .data as { id: number };

    captureLog();
    const read = await readCatalogue(client);

    const shown = new Map(read.categories.map((c) => [c.id, c.shown]));
    expect(shown.get(dots.id)).toBe(false);
    expect(shown.get(upper.id)).toBe(false);
    expect(shown.get(plain.id)).toBe(true);
    expect(read.brands.some((b) => b.id === brand.id)).toBe(false);
    expect(read.brands.length).toBe(brands.length - 1);
    expect(read.products.some((p) => p.id === named.id)).toBe(false);
    const kept = read.products.find((p) => p.id === long.id);
    expect(kept).toBeDefined();
    const slug =
      productPath(kept ?? { id: 0, name: '' })
        .split('/')
        .at(-1) ?? '';
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(slug).toMatch(/^(oe)+$/);

    expect(logged(`category ${String(dots.id)} left out`)[0]).toContain('dot segment');
    expect(logged(`category ${String(upper.id)} left out`)[0]).toContain('not canonical');
    expect(logged(`brand ${String(brand.id)} left out`)[0]).toContain('index');
    expect(logged(`product ${String(named.id)} left out`)[0]).toContain('index');
    expect(logged(`product ${String(long.id)}`)).toEqual([]);
  });
});

describe('the content a build and a publish read', () => {
  test('content pages named index, a route of the shop or a dot path are left out and logged', async () => {
    const cma = `${sandbox.url}/contentful-management/spaces/${sandbox.contentful.spaceId}/environments/master/entries`;
    const auth = { Authorization: `Bearer ${sandbox.contentful.managementToken}` };
    const pages = [
      ['prise-index', 'index'],
      ['prise-revendeur', 'espace-revendeur'],
      ['prise-points', 'aide/../panier'],
      ['page-honnete', 'a-propos-de-nous'],
    ] as const;
    for (const [id, slug] of pages) {
      await call(
        'PUT',
        `${cma}/${id}`,
        { fields: { title: { fr: `Page ${slug}` }, slug: { fr: slug }, description: { fr: 'x' } } },
        { ...auth, 'X-Contentful-Content-Type': 'contentPage' },
      );
      await call('PUT', `${cma}/${id}/published`, undefined, auth);
    }
    captureLog();
    const content = await getSiteContent(
      createContentfulClient({
        apiUrl: `${sandbox.url}/contentful`,
        spaceId: sandbox.contentful.spaceId,
        environment: sandbox.contentful.environment,
        accessToken: sandbox.contentful.deliveryToken,
      }),
    );
    const ids = content.pages.map((page) => page.id);
    expect(ids).toContain('page-honnete');
    expect(ids).toContain('page-cgv');
    for (const id of ['prise-index', 'prise-revendeur', 'prise-points']) {
      expect(ids).not.toContain(id);
      expect(logged(`content page ${id} left out`), id).toHaveLength(1);
    }
    expect(logged('content page prise-revendeur')[0]).toContain("shop's route /espace-revendeur");
  });
});

describe('pictures that cannot be fetched', () => {
  const imageConfig = () =>
    ({
      domains: [],
      remotePatterns: imageRemotePatterns([], sandbox.url),
      service: { entrypoint: 'astro/assets/services/sharp', config: {} },
    }) as unknown as Parameters<typeof probeRemotePicture>[1];

  test('the probe: a picture is reachable, a missing one answers 404, a stalled host hits the deadline, another host is refused', async () => {
    const seed = (await call('GET', v3('/catalog/products?include=images&limit=1'))).data as {
      images: { url_standard: string }[];
    }[];
    const existing = seed[0]?.images[0]?.url_standard ?? '';
    expect(await probeRemotePicture(existing, imageConfig())).toBeNull();
    expect(await probeRemotePicture(`${sandbox.url}/images/absente.jpg`, imageConfig())).toBe(
      'answered 404',
    );
    expect(await probeRemotePicture('https://ailleurs.example/x.jpg', imageConfig())).toContain(
      'allowed',
    );
    await call('POST', `${sandbox.url}/__sandbox/faults`, { match: '/images/', down: 'hang' });
    expect(await probeRemotePicture(existing, imageConfig(), 200)).toBe('no answer within 200 ms');
  });

  test('a publish encodes the placeholder for a 404 picture, the real one for the others, and logs the picture', async () => {
    const seed = (await call('GET', v3('/catalog/products?include=images&limit=1'))).data as {
      images: { url_standard: string }[];
    }[];
    const existing = seed[0]?.images[0]?.url_standard ?? '';
    const missing = `${sandbox.url}/images/disparue.jpg`;
    const clientDir = mkdtempSync(path.join(tmpdir(), 'refused-pictures-'));
    try {
      copyFileSync(
        path.join('public', PLACEHOLDER_PICTURE),
        path.join(clientDir, PLACEHOLDER_PICTURE),
      );
      const scope: AstroAssetScope = {};
      let n = 0;
      const publisher = installPicturePublisher({
        captured: {
          addStaticImage: () => `/_astro/picture_${String(++n)}.webp`,
          imageConfig: imageConfig() as never,
          assetsDir: '_astro',
        },
        clientDir,
        scope,
        owners: (src) => (src === missing ? [777] : []),
      });
      const add = scope.astroAsset?.addStaticImage;
      add?.({ src: missing, width: 48, format: 'webp' }, [], undefined);
      add?.({ src: existing, width: 40, format: 'webp' }, [], undefined);
      captureLog();
      const written = await publisher.flush('/p/777/matelas');
      expect(written.map((file) => path.basename(file)).sort()).toEqual([
        'picture_1.webp',
        'picture_2.webp',
      ]);
      const placeholder = await sharp(path.join(clientDir, '_astro/picture_1.webp')).metadata();
      const real = await sharp(path.join(clientDir, '_astro/picture_2.webp')).metadata();
      expect([placeholder.format, placeholder.width]).toEqual(['webp', 48]);
      expect([real.format, real.width]).toEqual(['webp', 40]);
      const line = logged('disparue.jpg')[0] ?? '';
      expect(line).toContain('product 777');
      expect(line).toContain('404');
      expect(line).toContain('/p/777/matelas');
      expect(existsSync(path.join(clientDir, '_astro/picture_3.webp'))).toBe(false);
    } finally {
      rmSync(clientDir, { recursive: true, force: true });
    }
  });
});
