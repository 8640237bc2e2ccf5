/**
 * The picture proxy `/_image` (src/server/pictures/image-proxy.ts): only the
 * shop's variants, only raster sources judged by their bytes, always an encode, bounded, kept
 * on disk, and every reply with the picture CSP and nosniff. Sources come from a fetch handed
 * to the proxy; the real HTTP path against the sandbox is tests/integration/image-proxy.test.ts.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharpService from 'astro/assets/services/sharp';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  isPictureVariant,
  kindVariants,
  PICTURE_FORMATS,
  PICTURE_KINDS,
  pictureVariants,
} from '../../src/lib/picture-variants.ts';
import { PICTURE_CSP } from '../../src/shop/html/csp.ts';
import { imageRemotePatterns } from '../../src/server/pictures/image-hosts.ts';
import {
  createImageProxy,
  parsePictureRequest,
  ProxyRefusal,
  variantKey,
  type ImageProxyOptions,
} from '../../src/server/pictures/image-proxy.ts';
import { rasterFormat } from '../../src/server/pictures/raster-format.ts';
import { createGate, GateFullError } from '../../src/server/gate.ts';
import { PictureCache, pictureCacheDirOf } from '../../src/server/pictures/picture-cache.ts';
import { withSecurityHeaders } from '../../src/server/headers.ts';
import { pngClaiming } from '../integration/helpers/png.ts';

const HOST = 'cdn11.bigcommerce.com';
const SANDBOX = 'http://127.0.0.1:4010';
const imageConfig = {
  domains: [],
  remotePatterns: imageRemotePatterns([HOST, 'images.ctfassets.net'], SANDBOX),
  service: { entrypoint: 'astro/assets/services/sharp', config: {} },
};
const VARIANTS = pictureVariants();
const ALLOWED_STATUSES = [200, 400, 403, 404, 413, 415, 422, 502, 503, 504];

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(document.domain)</script><rect width="64" height="64" fill="red"/></svg>`;
const MARKUP = [
  SVG,
  `<?xml version="1.0"?>${SVG}`,
  '<!DOCTYPE html><html><body><script>alert(1)</script></body></html>',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
  '<html><img src=x onerror=alert(1)>',
];

let pictures: Record<'jpeg' | 'png' | 'gif' | 'webp', Buffer>;
let workDir: string;

beforeAll(async () => {
  const base = () =>
    sharp({ create: { width: 120, height: 90, channels: 3, background: '#2266aa' } });
  pictures = {
    jpeg: await base().jpeg().toBuffer(),
    png: await base().png().toBuffer(),
    gif: await base().gif().toBuffer(),
    webp: await base().webp().toBuffer(),
  };
  workDir = mkdtempSync(path.join(tmpdir(), 'image-proxy-'));
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

/** A fetch answering each URL with `sources[url]` (200), else 404; counts its calls. */
function sourceFetch(sources: Map<string, Uint8Array | Response>) {
  const calls: string[] = [];
  const fetch = (input: string | URL | Request): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push(url);
    const source = sources.get(url);
    if (source instanceof Response) return Promise.resolve(source.clone());
    return Promise.resolve(
      source === undefined
        ? new Response('Not Found', { status: 404 })
        : new Response(new Uint8Array(source), {
            status: 200,
            // What the host says is never believed: a picture type for everything.
            headers: { 'content-type': 'image/jpeg' },
          }),
    );
  };
  return { fetch: fetch, calls };
}

function proxyWith(
  sources: Map<string, Uint8Array | Response>,
  extra: Partial<ImageProxyOptions> = {},
) {
  const source = sourceFetch(sources);
  const proxy = createImageProxy({
    imageConfig,
    cacheDir: () => null,
    fetch: source.fetch,
    ...extra,
  });
  return { proxy, calls: source.calls };
}

function query(params: Record<string, string>): URL {
  const url = new URL('http://shop.test/_image');
  for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
  return url;
}

const variantQuery = (href: string, index = 0) => {
  const size = VARIANTS[index % VARIANTS.length];
  if (!size) throw new Error('no variant');
  return query({ href, w: String(size.width), h: String(size.height), f: 'webp' });
};

async function expectSafeReply(response: Response, source?: Uint8Array): Promise<Buffer> {
  expect(ALLOWED_STATUSES).toContain(response.status);
  expect(response.headers.get('content-security-policy')).toBe(PICTURE_CSP);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status === 200) {
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(rasterFormat(body)).toBe('webp');
    if (source) expect(body.equals(Buffer.from(source))).toBe(false);
  } else {
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(body.length).toBeGreaterThan(0);
    expect(body.length).toBeLessThan(100);
    expect(body.toString('utf8')).not.toMatch(/</);
  }
  return body;
}

describe('the variant list (picture-variants.ts)', () => {
  test("each kind's variants are the ones Astro's image service asks for", async () => {
    for (const kind of PICTURE_KINDS) {
      const options = {
        src: `https://${HOST}/a.jpg`,
        width: kind.width,
        height: kind.height,
        widths: [...kind.widths],
        format: 'webp' as const,
      };
      const srcSet = await sharpService.getSrcSet?.(options, imageConfig as never, {} as never);
      const asked = [
        { width: kind.width, height: kind.height },
        ...(srcSet ?? []).map(({ transform }) => ({
          width: transform.width,
          height: transform.height,
        })),
      ];
      expect(asked).toEqual(kindVariants(kind));
      for (const size of asked)
        expect(isPictureVariant(size.width ?? 0, size.height ?? 0)).toBe(true);
    }
  });

  test('nothing else is a variant', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 5000 }),
        fc.integer({ min: -5, max: 5000 }),
        (w, h) => {
          const listed = VARIANTS.some((size) => size.width === w && size.height === h);
          expect(isPictureVariant(w, h)).toBe(listed);
        },
      ),
    );
  });
});

describe('parameters', () => {
  const numberSpelling = fc.oneof(
    fc.integer({ min: -100_000, max: 100_000 }).map(String),
    fc.constantFrom(
      '',
      '0',
      '-1',
      '-5',
      '340.0',
      '340abc',
      ' 340',
      '+340',
      '0340',
      '3e2',
      '1000',
      'NaN',
      'Infinity',
      '0x154',
      '３４０',
    ),
    fc.constantFrom(...VARIANTS.flatMap((size) => [String(size.width), String(size.height)])),
    fc.string({ maxLength: 8 }),
  );
  const formatSpelling = fc.oneof(
    fc.constantFrom(
      'webp',
      'WEBP',
      'svg',
      'png',
      'jpeg',
      'avif',
      'gif',
      '../../etc/passwd',
      'webp ',
      '',
      'svg+xml',
    ),
    fc.string({ maxLength: 10 }),
  );
  const hrefSpelling = fc.oneof(
    fc.constantFrom(
      `https://${HOST}/a.jpg`,
      `https://${HOST}/a.svg`,
      `http://${HOST}/a.jpg`,
      `HTTPS://${HOST.toUpperCase()}/a.jpg`,
      `https://user:pw@${HOST}/a.jpg`,
      `https://${HOST}:8443/a.jpg`,
      `https://${HOST}.evil.test/a.jpg`,
      `https://evil.test/${HOST}/a.jpg`,
      `//${HOST}/a.jpg`,
      `/images/a.jpg`,
      `${SANDBOX}/images/800x800/a.jpg`,
      `${SANDBOX}/images/../__sandbox/faults`,
      `${SANDBOX}/images/%2e%2e/__sandbox/faults`,
      `${SANDBOX}/__sandbox/faults`,
      'http://127.0.0.1:4011/images/a.jpg',
      'http://localhost:4010/images/a.jpg',
      'http://[::1]:4010/images/a.jpg',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/a.jpg',
      'file:///etc/passwd',
      'data:image/svg+xml,<svg/>',
      'javascript:alert(1)',
      `https://${HOST}\\@evil.test/a.jpg`,
      `https://${HOST}#@evil.test/a.jpg`,
      '',
    ),
    fc.webUrl(),
    fc.string({ maxLength: 40 }),
  );

  test('every query is a listed variant of an allowed source, or a 400/403 refusal', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            href: hrefSpelling,
            w: numberSpelling,
            h: numberSpelling,
            f: formatSpelling,
            q: numberSpelling,
            fit: fc.constantFrom('cover', 'fill', 'inside'),
            background: fc.constantFrom('#fff', 'red'),
            extra: fc.string({ maxLength: 5 }),
          },
          { requiredKeys: [] },
        ),
        fc.boolean(),
        (fields, repeat) => {
          const params = new URLSearchParams();
          for (const [name, value] of Object.entries(fields)) params.append(name, value);
          if (repeat && fields.w !== undefined) params.append('w', fields.w);
          try {
            const request = parsePictureRequest(params, imageConfig);
            expect(isPictureVariant(request.width, request.height)).toBe(true);
            expect(PICTURE_FORMATS).toContain(request.format);
            expect(request.quality).toBeUndefined();
            expect(['https:', 'http:']).toContain(request.href.protocol);
            expect(
              request.href.hostname === HOST ||
                request.href.hostname === 'images.ctfassets.net' ||
                (request.href.origin === SANDBOX && request.href.pathname.startsWith('/images/')),
            ).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(ProxyRefusal);
            expect([400, 403]).toContain((error as ProxyRefusal).status);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  test.each([
    ['w=-1', { w: '-1', h: '340' }],
    ['h=-5', { w: '340', h: '-5' }],
    ['q=1000', { q: '1000' }],
    ['f=../', { f: '../../etc/passwd' }],
    ['f absent', { f: undefined }],
    ['an unlisted width', { w: '341', h: '341' }],
    ['f=svg', { f: 'svg' }],
  ])('%s is 400', async (_case, change) => {
    const { proxy, calls } = proxyWith(new Map());
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries({
      href: `https://${HOST}/a.jpg`,
      w: '340',
      h: '340',
      f: 'webp',
      ...change,
    })) {
      if (value !== undefined) params[name] = value;
    }
    const response = await proxy.handle(query(params));
    expect(response.status).toBe(400);
    await expectSafeReply(response);
    expect(calls).toEqual([]);
  });

  test('the sandbox only at its pictures, on its own port; private addresses never', async () => {
    const { proxy, calls } = proxyWith(new Map());
    for (const href of [
      `${SANDBOX}/images/../__sandbox/faults`,
      `${SANDBOX}/images/%2e%2e/__sandbox/faults`,
      'http://127.0.0.1:4011/images/a.jpg',
      'http://[::1]:4010/images/a.jpg',
      'http://169.254.169.254/images/a.jpg',
      `https://${HOST}.evil.test/a.jpg`,
    ]) {
      const response = await proxy.handle(variantQuery(href));
      expect(response.status).toBe(403);
      await expectSafeReply(response);
      // Whatever else the query asks (the attack's `&w=64`): the location is refused first.
      expect((await proxy.handle(query({ href, w: '64' }))).status).toBe(403);
    }
    expect(calls).toEqual([]);
  });
});

describe('sources', () => {
  test('raster signatures only: markup with or without a BOM or whitespace is none', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MARKUP),
        fc.constantFrom('', '\uFEFF', ' ', '\n\t ', '\uFEFF\n'),
        fc.constantFrom('utf8', 'utf16le') as fc.Arbitrary<BufferEncoding>,
        (markup, prefix, encoding) => {
          expect(rasterFormat(Buffer.from(prefix + markup, encoding))).toBeNull();
        },
      ),
    );
    for (const [format, bytes] of Object.entries(pictures))
      expect(rasterFormat(bytes)).toBe(format);
  });

  const markupSource = fc
    .tuple(fc.constantFrom(...MARKUP), fc.constantFrom('', '\uFEFF', '  \n', '\uFEFF '))
    .map(([markup, prefix]) => Buffer.from(prefix + markup));
  const truncated = fc
    .tuple(
      fc.constantFrom('jpeg', 'png', 'gif', 'webp' as const),
      fc.double({ min: 0, max: 0.95, noNaN: true }),
    )
    .map(([format, share]) =>
      pictures[format].subarray(0, Math.floor(pictures[format].length * share)),
    );
  const hugeHeader = fc
    .tuple(fc.integer({ min: 7000, max: 60_000 }), fc.integer({ min: 7000, max: 60_000 }))
    .map(([w, h]) => pngClaiming(w, h));
  const signaturePlusJunk = fc
    .tuple(
      fc.constantFrom(
        [0xff, 0xd8, 0xff],
        [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
        [...Buffer.from('GIF89a')],
        [...Buffer.from('RIFF\0\0\0\0WEBP')],
      ),
      fc.uint8Array({ maxLength: 200 }),
    )
    .map(([signature, junk]) => Buffer.concat([Buffer.from(signature), junk]));
  const source = fc.oneof(
    fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    markupSource,
    truncated,
    hugeHeader,
    signaturePlusJunk,
    fc.constantFrom('jpeg', 'png', 'gif', 'webp' as const).map((format) => pictures[format]),
  );

  test('every reply is a refusal or a WebP encoded from a raster source, with the headers', async () => {
    await fc.assert(
      fc.asyncProperty(source, fc.nat(VARIANTS.length - 1), async (bytes, index) => {
        const href = `https://${HOST}/picture.jpg`;
        const { proxy } = proxyWith(new Map([[href, bytes]]));
        const response = await proxy.handle(variantQuery(href, index));
        await expectSafeReply(response, bytes);
        if (rasterFormat(bytes) === null) expect(response.status).toBe(415);
        if (response.status === 200) expect(rasterFormat(bytes)).not.toBeNull();
      }),
      { numRuns: 150 },
    );
  });

  test('an SVG on an allowed host is refused (it was sent back as image/svg+xml)', async () => {
    const href = `https://${HOST}/product/logo.svg`;
    const { proxy } = proxyWith(new Map([[href, Buffer.from(SVG)]]));
    const response = await proxy.handle(query({ href, w: '96', h: '96', f: 'webp' }));
    expect(response.status).toBe(415);
    expect(await expectSafeReply(response)).not.toContain('<script');
  });

  test('a 20,000 × 20,000 PNG is 413, never the PNG itself', async () => {
    const href = `https://${HOST}/huge.png`;
    const huge = pngClaiming(20_000, 20_000);
    const { proxy } = proxyWith(new Map([[href, huge]]));
    const response = await proxy.handle(query({ href, w: '96', h: '96', f: 'webp' }));
    expect(response.status).toBe(413);
    await expectSafeReply(response, huge);
  });

  test('a JPEG, PNG, GIF and WebP each give the asked WebP size', async () => {
    for (const [format, bytes] of Object.entries(pictures)) {
      const href = `https://${HOST}/p.${format}`;
      const { proxy } = proxyWith(new Map([[href, bytes]]));
      const response = await proxy.handle(query({ href, w: '96', h: '96', f: 'webp' }));
      expect(response.status, format).toBe(200);
      const body = await expectSafeReply(response, bytes);
      // Astro's fit: cover within 96 × 96, never enlarged (the source is 120 × 90).
      const { width, height, format: out } = await sharp(body).metadata();
      expect({ width, height, out }).toEqual({ width: 96, height: 90, out: 'webp' });
    }
  });
});

describe('fetching', () => {
  test('a stalled host is 504 at the deadline', async () => {
    let aborted = false;
    const fetch = ((_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => {
          aborted = true;
          reject(init.signal?.reason as Error);
        });
      })) as unknown as typeof globalThis.fetch;
    const proxy = createImageProxy({
      imageConfig,
      cacheDir: () => null,
      fetch,
      fetchTimeoutMs: 50,
    });
    const response = await proxy.handle(variantQuery(`https://${HOST}/slow.jpg`));
    expect(response.status).toBe(504);
    expect(aborted).toBe(true);
    await expectSafeReply(response);
  });

  test('a body past the cap is 413, declared or not', async () => {
    const href = `https://${HOST}/big.jpg`;
    const big = Buffer.concat([pictures.jpeg, Buffer.alloc(4096)]);
    const { proxy } = proxyWith(new Map([[href, big]]), { maxSourceBytes: 2048 });
    expect((await proxy.handle(variantQuery(href))).status).toBe(413);
    const stream = new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(big);
          controller.close();
        },
      }),
    );
    const undeclared = proxyWith(new Map([[href, stream]]), { maxSourceBytes: 2048 });
    expect((await undeclared.proxy.handle(variantQuery(href))).status).toBe(413);
  });

  test('redirects are followed to allowed locations only', async () => {
    const start = `https://${HOST}/moved.jpg`;
    const redirect = (location: string) =>
      new Response(null, { status: 302, headers: { location } });
    const offsite = proxyWith(new Map([[start, redirect('http://127.0.0.1:6379/')]]));
    expect((await offsite.proxy.handle(variantQuery(start))).status).toBe(403);
    expect(offsite.calls).toEqual([start]);
    const onsite = proxyWith(
      new Map<string, Uint8Array | Response>([
        [start, redirect('/final.jpg')],
        [`https://${HOST}/final.jpg`, pictures.jpeg],
      ]),
    );
    expect((await onsite.proxy.handle(variantQuery(start))).status).toBe(200);
    const loop = proxyWith(new Map([[start, redirect(start)]]));
    expect((await loop.proxy.handle(variantQuery(start))).status).toBe(502);
    expect(loop.calls.length).toBe(4);
  });
});

describe('bounds and the kept files', () => {
  test('encodes run one at a time; past the queue, 503 at once', async () => {
    const gate = createGate(1, 2);
    let running = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const task = () =>
      gate.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => release.push(resolve));
        running -= 1;
      });
    const runs = [task(), task(), task()];
    await expect(task()).rejects.toBeInstanceOf(GateFullError);
    while (runs.length > 0) {
      await Promise.resolve();
      const next = release.shift();
      if (next) {
        next();
        await runs.shift();
      }
    }
    expect(most).toBe(1);
  });

  test('a burst of one variant is one fetch and one encode', async () => {
    const href = `https://${HOST}/burst.jpg`;
    const { proxy, calls } = proxyWith(new Map([[href, pictures.jpeg]]));
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => proxy.handle(variantQuery(href))),
    );
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200));
    expect(calls).toEqual([href]);
  });

  test('a variant encoded once is a file: another copy sharing the folder reads it', async () => {
    const dir = path.join(workDir, 'shared');
    const href = `https://${HOST}/kept.jpg`;
    const first = proxyWith(new Map([[href, pictures.jpeg]]), { cacheDir: () => dir });
    const body = Buffer.from(await (await first.proxy.handle(variantQuery(href, 1))).arrayBuffer());
    const second = proxyWith(new Map(), { cacheDir: () => dir });
    const again = await second.proxy.handle(variantQuery(href, 1));
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(body)).toBe(true);
    expect(second.calls).toEqual([]);
  });

  test('a kept file that is not a WebP is never served: the picture is encoded again', async () => {
    const dir = path.join(workDir, 'damaged');
    const href = `https://${HOST}/damaged.jpg`;
    const request = parsePictureRequest(variantQuery(href).searchParams, imageConfig);
    const cache = new PictureCache(dir, { maxBytes: 1_000_000 });
    await cache.write(variantKey(request), 'webp', Buffer.from(SVG));
    const { proxy, calls } = proxyWith(new Map([[href, pictures.jpeg]]), { cacheDir: () => dir });
    const reply = await proxy.handle(variantQuery(href));
    expect(reply.status).toBe(200);
    await expectSafeReply(reply);
    expect(calls).toEqual([href]);
  });

  test('the folder stays under its bound, the least recently used going first', async () => {
    const dir = path.join(workDir, 'bounded');
    const cache = new PictureCache(dir, { maxBytes: 10_000 });
    for (let index = 0; index < 30; index += 1) {
      await cache.write(`key ${String(index)}`, 'webp', new Uint8Array(1000).fill(index));
    }
    await cache.prune();
    expect(cache.bytes).toBeLessThanOrEqual(10_000);
    const files = readdirSync(dir, { recursive: true }).filter((name) =>
      String(name).endsWith('.webp'),
    );
    expect(files.length).toBeLessThanOrEqual(10);
    expect(await cache.read('key 29', 'webp')).not.toBeNull();
    expect(await cache.read('key 0', 'webp')).toBeNull();
  });
});

test('the folder is the releases folder’s when releases are served or built, shared by copies', () => {
  const releasesDir = path.resolve('/srv/shop/dist-releases');
  const shared = path.join(releasesDir, 'picture-cache');
  expect(pictureCacheDirOf({ releasesDir, rebuilds: true, distDir: '/srv/shop/dist' })).toBe(
    shared,
  );
  expect(
    pictureCacheDirOf({
      releasesDir,
      rebuilds: false,
      distDir: `${releasesDir}/r20261128-070000-abcd`,
    }),
  ).toBe(shared);
  expect(pictureCacheDirOf({ releasesDir, rebuilds: false, distDir: '/srv/shop/dist' })).toBe(
    path.resolve('/srv/shop/dist/picture-cache'),
  );
});

describe('headers through the storefront server', () => {
  test('the picture policy stays the only CSP; nosniff is there', () => {
    const headers = withSecurityHeaders(
      { 'content-type': 'image/webp', 'content-security-policy': PICTURE_CSP },
      true,
    );
    expect(headers['content-security-policy']).toBe(PICTURE_CSP);
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
    expect(headers['X-Frame-Options']).toBe('SAMEORIGIN');
  });
});
