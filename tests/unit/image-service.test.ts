import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import sharp from 'sharp';
import sharpService from 'astro/assets/services/sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import service, {
  encoderWorkerOf,
  EncoderProcess,
  Preencoder,
  sourceDigest,
  type EncodeJob,
  type EncodedVariant,
} from '../../src/server/pictures/image-service.ts';
import { fetchSource } from '../../src/server/pictures/image-encoder-worker.ts';
import { transformKey } from '../../src/server/pictures/picture-key.ts';
import { useListingStore, writeListingStore } from '../../src/shop/loaders/listing-store.ts';
import { makeCatalogue } from './helpers/catalogue.ts';

type Transform = Parameters<EncodeJob>[1][number];
type Config = Parameters<EncodeJob>[2];

const silent = { info: ignore, warn: ignore, error: ignore };
function ignore(): void {
  // A logger that says nothing.
}
const config = {
  service: { entrypoint: './src/server/pictures/image-service.ts', config: {} },
  domains: [],
  remotePatterns: [],
} as unknown as Config;
const SRC = 'https://cdn.example/a.jpg';
const bytesOf = (text: string) => new TextEncoder().encode(text);
const textOf = (variant: EncodedVariant | null) =>
  variant === null ? null : new TextDecoder().decode(variant.output.data);

/** An encoder of text "sources": says what it encoded, counts what it was asked. */
function textEncoder(sources: Record<string, string | null> = {}) {
  const jobs: string[] = [];
  const encode: EncodeJob = async (src, transforms) => {
    jobs.push(`${src} ${transforms.map((t) => String(t.width)).join(',')}`);
    await new Promise((resolve) => setImmediate(resolve));
    const source = sources[src] === undefined ? 'A' : sources[src];
    if (source === null) return transforms.map(() => null);
    return transforms.map((transform) => ({
      digest: sourceDigest(bytesOf(source)),
      output: { data: bytesOf(`${source}@${transform.width}`), format: 'webp' as const },
      messages: [],
    }));
  };
  return { encode, jobs };
}

/** Lets the background queue run until it is idle. */
async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
}

const variant = (width: number, src = SRC): Transform => ({
  src,
  width,
  height: width,
  format: 'webp',
  // Properties of the page's <img>, not of the output: never part of the match.
  loading: 'lazy',
  sizes: '50vw',
});

describe('transformKey', () => {
  const props = fc.record(
    {
      width: fc.integer({ min: 1, max: 4000 }),
      height: fc.integer({ min: 1, max: 4000 }),
      format: fc.constantFrom('webp', 'avif', 'png', 'jpeg'),
      quality: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom('low', 'high')),
      fit: fc.constantFrom('cover', 'contain', 'fill'),
      position: fc.constantFrom('center', 'top', 'left bottom'),
      background: fc.constantFrom('#fff', '#000'),
    },
    { requiredKeys: [] },
  );
  const noise = fc.dictionary(
    fc.constantFrom('loading', 'decoding', 'sizes', 'alt', 'data-astro-image', 'widths'),
    fc.string(),
  );
  const url = fc
    .string({ maxLength: 12 })
    .map((path) => `https://cdn.example/${encodeURIComponent(path)}`);
  const normalise = (p: Record<string, unknown>) =>
    JSON.stringify(
      ['width', 'height', 'format', 'quality', 'fit', 'position', 'background'].map(
        (name) => p[name] ?? null,
      ),
    );

  it('depends on the source and the output properties, on nothing else', () => {
    fc.assert(
      fc.property(url, props, noise, noise, (src, output, a, b) => {
        expect(transformKey(src, { ...a, ...output })).toBe(transformKey(src, { ...b, ...output }));
      }),
    );
  });

  it('differs when the source or any output property differs', () => {
    fc.assert(
      fc.property(url, url, props, props, (srcA, srcB, a, b) => {
        const same = srcA === srcB && normalise(a) === normalise(b);
        expect(transformKey(srcA, a) === transformKey(srcB, b)).toBe(same);
      }),
    );
  });
});

describe('Preencoder', () => {
  it('encodes the variants of a source in one job, each once, in the background', async () => {
    const { encode, jobs } = textEncoder();
    const preencoder = new Preencoder(encode);
    preencoder.schedule(SRC, [variant(340), variant(680)], config);
    preencoder.schedule(SRC, [variant(680), variant(340), variant(1024)], config);
    await settle();
    expect(jobs).toEqual([`${SRC} 340,680`, `${SRC} 1024`]);
    expect(textOf(await preencoder.take(bytesOf('A'), variant(680)))).toBe('A@680');
    // Taken once: asked again, the variant is Astro's to encode.
    expect(await preencoder.take(bytesOf('A'), variant(680))).toBeNull();
  });

  it('gives nothing for other bytes, another output or a source never scheduled', async () => {
    const { encode } = textEncoder();
    const preencoder = new Preencoder(encode);
    preencoder.schedule(SRC, [variant(340), variant(680), variant(1024)], config);
    await settle();
    expect(await preencoder.take(bytesOf('B'), variant(340))).toBeNull();
    expect(await preencoder.take(bytesOf('A'), { ...variant(680), quality: 50 })).toBeNull();
    expect(await preencoder.take(bytesOf('A'), variant(1024, `${SRC}?v=2`))).toBeNull();
  });

  it('stops at the first take: what is still queued is never encoded, nothing more is queued', async () => {
    const { encode, jobs } = textEncoder();
    let stops = 0;
    const preencoder = new Preencoder(encode, { onStop: () => stops++ });
    preencoder.schedule(SRC, [variant(96)], config);
    preencoder.schedule('https://cdn.example/b.jpg', [variant(340)], config);
    preencoder.schedule('https://cdn.example/c.jpg', [variant(680)], config);
    // Astro's step starts while the first job runs: that one is waited for, the rest dropped.
    const first = preencoder.take(bytesOf('A'), variant(96));
    expect(
      await preencoder.take(bytesOf('A'), variant(680, 'https://cdn.example/c.jpg')),
    ).toBeNull();
    expect(textOf(await first)).toBe('A@96');
    preencoder.schedule('https://cdn.example/d.jpg', [variant(340)], config);
    await settle();
    expect(jobs).toEqual([`${SRC} 96`]);
    expect(stops).toBe(1);
  });

  it('gives nothing for a source that failed or a job that threw, and goes on', async () => {
    const { encode: encodeText } = textEncoder({ 'https://cdn.example/missing.jpg': null });
    const encode: EncodeJob = async (src, transforms, imageConfig) => {
      if (src.endsWith('down.jpg')) throw new Error('ECONNREFUSED');
      return encodeText(src, transforms, imageConfig);
    };
    const preencoder = new Preencoder(encode);
    preencoder.schedule('https://cdn.example/missing.jpg', [variant(96)], config);
    preencoder.schedule('https://cdn.example/down.jpg', [variant(96)], config);
    preencoder.schedule(SRC, [variant(680)], config);
    await settle();
    expect(
      await preencoder.take(bytesOf('A'), variant(96, 'https://cdn.example/missing.jpg')),
    ).toBeNull();
    expect(
      await preencoder.take(bytesOf('A'), variant(96, 'https://cdn.example/down.jpg')),
    ).toBeNull();
    expect(textOf(await preencoder.take(bytesOf('A'), variant(680)))).toBe('A@680');
  });

  it('sends no job once its byte budget is spent', async () => {
    const { encode, jobs } = textEncoder();
    // Each output is 'A@NNN', 5 or 6 bytes: the budget is spent after the first job.
    const preencoder = new Preencoder(encode, { maxBytes: 8 });
    preencoder.schedule(SRC, [variant(340), variant(680)], config);
    preencoder.schedule('https://cdn.example/b.jpg', [variant(340)], config);
    await settle();
    expect(jobs).toEqual([`${SRC} 340,680`]);
    expect(
      await preencoder.take(bytesOf('A'), variant(340, 'https://cdn.example/b.jpg')),
    ).toBeNull();
  });

  it('sends the encoder the source and output properties only', async () => {
    const sent: Transform[] = [];
    const preencoder = new Preencoder((_src, transforms) => {
      sent.push(...transforms);
      return Promise.resolve([]);
    });
    preencoder.schedule(SRC, [variant(340)], config);
    await settle();
    expect(sent).toEqual([{ src: SRC, width: 340, height: 340, format: 'webp' }]);
  });
});

describe('EncoderProcess', () => {
  let source: Buffer;
  let origin: string;
  const server = createServer((request, response) => {
    if (request.url === '/a.jpg') {
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      response.end(source);
    } else if (request.url === '/silent.jpg') {
      // Accepts the request and never answers (closed with the server).
    } else if (request.url === '/stalled.jpg') {
      // Answers the headers, then never sends the body.
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      response.write(source.subarray(0, 16));
    } else if (request.url === '/moved.jpg') {
      response.writeHead(302, { location: '/a.jpg' });
      response.end();
    } else {
      response.writeHead(404);
      response.end();
    }
  });

  beforeAll(async () => {
    source = await sharp({
      create: { width: 400, height: 300, channels: 3, background: '#7a5c3e' },
    })
      .jpeg()
      .toBuffer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  );

  it("encodes in its own process the very bytes sharp's service encodes here", async () => {
    const encoder = new EncoderProcess(import.meta.resolve('astro/assets/services/sharp'));
    const src = `${origin}/a.jpg`;
    const transforms: Transform[] = [
      { src, width: 96, height: 72, format: 'webp' },
      { src, width: 200, height: 150, format: 'webp', quality: 'low' },
      { src, width: 300, height: 300, format: 'avif', fit: 'cover' },
    ];
    try {
      const results = await encoder.encode(src, transforms, config);
      expect(results).toHaveLength(transforms.length);
      for (const [index, transform] of transforms.entries()) {
        const direct = await sharpService.transform(
          new Uint8Array(source),
          transform,
          config,
          silent,
        );
        expect(results[index]?.digest).toBe(sourceDigest(new Uint8Array(source)));
        expect(results[index]?.output.format).toBe(direct.format);
        expect(Buffer.from(results[index]?.output.data ?? [])).toEqual(Buffer.from(direct.data));
      }
      // A missing source or a redirect: nothing encoded (Astro's step fetches and reports).
      expect(await encoder.encode(`${origin}/missing.jpg`, transforms.slice(0, 1), config)).toEqual(
        [null],
      );
      expect(await encoder.encode(`${origin}/moved.jpg`, transforms.slice(0, 1), config)).toEqual([
        null,
      ]);
    } finally {
      encoder.close();
    }
    // Closed: every later job answers at once with nothing.
    expect(await encoder.encode(src, transforms, config)).toEqual([null, null, null]);
  });

  it('a source that never answers, or stalls in its body, ends in a clear error at the deadline', async () => {
    for (const name of ['silent', 'stalled']) {
      const src = `${origin}/${name}.jpg`;
      const started = performance.now();
      await expect(fetchSource(src, 200)).rejects.toThrow(
        `could not fetch ${src}: no answer within 200 ms`,
      );
      // Within the deadline, not at some later default (undici's own is 300 s).
      expect(performance.now() - started).toBeLessThan(5_000);
    }
    await expect(fetchSource(`${origin}/missing.jpg`, 200)).rejects.toThrow(
      `could not fetch ${origin}/missing.jpg: status 404`,
    );
    expect(await fetchSource(`${origin}/a.jpg`, 5_000)).toEqual(new Uint8Array(source));
  });

  it("the encoder process's fetches have a deadline: a silent source gives nothing, the next job runs", async () => {
    const encoder = new EncoderProcess(import.meta.resolve('astro/assets/services/sharp'), {
      fetchTimeoutMs: 200,
    });
    const transform = (src: string): Transform => ({ src, width: 96, format: 'webp' });
    try {
      const silent = `${origin}/silent.jpg`;
      expect(await encoder.encode(silent, [transform(silent)], config)).toEqual([null]);
      const src = `${origin}/a.jpg`;
      const [encoded] = await encoder.encode(src, [transform(src)], config);
      expect(encoded?.digest).toBe(sourceDigest(new Uint8Array(source)));
    } finally {
      encoder.close();
    }
  });

  it("the encoder's file: the one the image config names (a build), else the one beside the service", () => {
    const named = { ...config, service: { ...config.service, config: { encoderWorker: '/w.ts' } } };
    expect(encoderWorkerOf(named as Config)).toBe('/w.ts');
    const beside = encoderWorkerOf(config);
    expect(beside).toBe(
      path.resolve(import.meta.dirname, '../../src/server/pictures/image-encoder-worker.ts'),
    );
  });

  it('answers with nothing when its file is missing', async () => {
    const encoder = new EncoderProcess(import.meta.resolve('astro/assets/services/sharp'), {
      worker: path.join(tmpdir(), 'no-such-encoder-worker.ts'),
    });
    const src = `${origin}/a.jpg`;
    expect(await encoder.encode(src, [{ src, width: 96 }], config)).toEqual([null]);
    encoder.close();
  });

  it('answers with nothing when the process cannot load its encoder', async () => {
    const encoder = new EncoderProcess('file:///nonexistent/sharp.js');
    const src = `${origin}/a.jpg`;
    const results = await encoder.encode(src, [{ src, width: 96 }], config);
    expect(results.every((result) => result === null)).toBe(true);
    encoder.close();
  });
});

describe('getURL on demand', () => {
  it('answers the release’s file of a variant it has, the /_image endpoint otherwise', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'image-service-'));
    const onDemand = {
      ...config,
      endpoint: { route: '/_image' },
      remotePatterns: [{ protocol: 'https', hostname: 'cdn.example' }],
    } as unknown as Config;
    const card = { src: SRC, width: 340, height: 340, format: 'webp' as const };
    try {
      const file = path.join(dir, 'listings.sqlite');
      await writeListingStore(file, makeCatalogue([], []), [
        [transformKey(SRC, card), '/_astro/a_Z1x.webp'],
      ]);
      useListingStore(file);
      // What else the page asks (loading, sizes) is no part of the variant.
      expect(await service.getURL({ ...card, loading: 'lazy' }, onDemand, silent)).toBe(
        '/_astro/a_Z1x.webp',
      );
      expect(await service.getURL({ ...card, width: 680 }, onDemand, silent)).toBe(
        `/_image?href=${encodeURIComponent(SRC)}&w=680&h=340&f=webp`,
      );
      // A host the image proxy does not accept is shown as it is, as sharp's service does.
      expect(
        await service.getURL({ ...card, src: 'https://ailleurs.example/a.jpg' }, onDemand, silent),
      ).toBe('https://ailleurs.example/a.jpg');
    } finally {
      useListingStore(path.join(dir, 'none.sqlite'));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
