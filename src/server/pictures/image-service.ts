/**
 * The shop's image service (astro.config.mjs `image.service`): Astro's sharp service, which at
 * build encodes a picture's variants in the background, at the lowest CPU priority, from the
 * moment a page first asks for them.
 *
 * Why: Astro encodes the pictures of a static build only once every page is written. On the
 * 10,000-product bench that step took 8–10 s of a 60 s build, both cores busy, after the pages.
 * Here `getSrcSet` (called by `getImage` on the page that first shows a picture) queues the
 * picture's variants for a child process that fetches and encodes them beside page rendering;
 * when Astro's step then calls `transform` for a variant, the result is waiting.
 *
 * Lowest priority (nice 19), in a process of its own: at normal priority the encodes took the
 * second core from page rendering (V8's garbage-collector threads, file writes) and rendering
 * slowed by as much as the step saved (pages 46.8 s → 53.3 s for 8.4 s saved); at nice 19 they
 * run in the second core's idle time and page rendering keeps its pace (`BUILD_LOG_LEVEL=info
 * npm run bench:build` with an encode loop beside it: pages 46.9 s, 890 encodes done).
 *
 * The same bytes, the same output: a variant is used only when the source Astro hands to
 * `transform` has the SHA-256 of the one it was encoded from and the same output properties
 * (size, format, quality, fit, position, background), and it is encoded by the same sharp
 * service with the same image config. Anything else (not reached yet, a failed fetch or encode,
 * a source that changed, the child gone) is encoded on the spot, as Astro's sharp service does.
 *
 * Only in a static build: Astro records the pictures to emit through
 * `globalThis.astroAsset.addStaticImage`, present while it pre-renders and removed after; in
 * `astro dev` and in the on-demand server the `/_image` endpoint encodes on request and this
 * service is the sharp service. Only remote pictures Astro will emit (allowed by
 * `image.remotePatterns`) are queued; results are kept up to PREENCODE_MAX_BYTES.
 *
 * On demand, `getURL` answers the release's file of a variant when the release has one (its
 * picture table, written by the build and each publish: listing-store.ts), and the `/_image`
 * endpoint's URL otherwise: a listing view shows the files page 1 shows, served as static
 * files, instead of encoding each picture again on request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import type { LocalImageService } from 'astro';
import sharpService from 'astro/assets/services/sharp';
import { isRemoteAllowed } from 'astro/assets/utils';
import { currentAddStaticImage } from './astro-asset.ts';
import { buildPlaceholder, encodeOrPlaceholder } from './picture-fallback.ts';
import { isRemotePicture, outputProperties, transformKey } from './picture-key.ts';
import { releasePicture } from '../../shop/loaders/listing-store.ts';

type Transform = Parameters<LocalImageService['transform']>[1];
type ImageConfig = Parameters<LocalImageService['transform']>[2];
type Output = Awaited<ReturnType<LocalImageService['transform']>>;

/** Encoded variants kept for Astro's image step, at most (seed: about 1.5 MB). */
export const PREENCODE_MAX_BYTES = 64 * 1024 * 1024;

/** The source and output properties of a transform, nothing else (what the encoder is sent). */
export function outputTransform(
  src: string,
  transform: Readonly<Record<string, unknown>>,
): Transform {
  return { ...outputProperties(transform), src };
}

export function sourceDigest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface EncodedVariant {
  /** SHA-256 of the source the variant was encoded from. */
  digest: string;
  output: Output;
  /** What sharp's transform logged while encoding, told again when the variant is used. */
  messages: { level: 'info' | 'warn' | 'error'; message: string }[];
}

/** Fetches `src` and encodes each transform of it: null for a variant that could not be. */
export type EncodeJob = (
  src: string,
  transforms: readonly Transform[],
  config: ImageConfig,
) => Promise<readonly (EncodedVariant | null)[]>;

interface Job {
  src: string;
  keys: string[];
  transforms: Transform[];
  config: ImageConfig;
}

/**
 * The background queue: a source's variants are encoded one source at a time, in the order
 * pages asked for them, until Astro's image step begins (the first `take`), when the queue
 * stops (`onStop`: the encoder process ends, its job in flight too, since at its priority it
 * would wait for Astro's own encodes) and what is left is Astro's to encode.
 */
export class Preencoder {
  readonly #queue: Job[] = [];
  readonly #results = new Map<string, Promise<EncodedVariant | null>>();
  readonly #settle = new Map<string, (encoded: EncodedVariant | null) => void>();
  readonly #encode: EncodeJob;
  readonly #maxBytes: number;
  readonly #onStop: (() => void) | undefined;
  #bytes = 0;
  #running = false;
  #stopped = false;

  constructor(encode: EncodeJob, options: { maxBytes?: number; onStop?: () => void } = {}) {
    this.#encode = encode;
    this.#maxBytes = options.maxBytes ?? PREENCODE_MAX_BYTES;
    this.#onStop = options.onStop;
  }

  /** Queues the variants of `src` not queued yet. */
  schedule(src: string, transforms: readonly Transform[], config: ImageConfig): void {
    if (this.#stopped) return;
    const job: Job = { src, keys: [], transforms: [], config };
    for (const transform of transforms) {
      const key = transformKey(src, transform);
      if (this.#results.has(key)) continue;
      this.#results.set(
        key,
        new Promise((resolve) => {
          this.#settle.set(key, resolve);
        }),
      );
      job.keys.push(key);
      job.transforms.push(outputTransform(src, transform));
    }
    if (job.keys.length === 0) return;
    this.#queue.push(job);
    if (!this.#running) void this.#run();
  }

  /**
   * The variant encoded in the background for these source bytes and this transform, or null
   * (never queued, not reached, failed, or encoded from other bytes). Stops the queue: from
   * the first call on, Astro's image step is running and encodes the rest itself.
   */
  async take(bytes: Uint8Array, transform: Transform): Promise<EncodedVariant | null> {
    this.#stop();
    const key = transformKey(transform.src, transform);
    const pending = this.#results.get(key);
    if (pending === undefined) return null;
    this.#results.delete(key);
    const encoded = await pending;
    return encoded?.digest === sourceDigest(bytes) ? encoded : null;
  }

  #stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const job of this.#queue.splice(0)) {
      for (const key of job.keys) this.#finish(key, null);
    }
    this.#onStop?.();
  }

  #finish(key: string, encoded: EncodedVariant | null): void {
    const settle = this.#settle.get(key);
    this.#settle.delete(key);
    settle?.(encoded);
  }

  async #run(): Promise<void> {
    this.#running = true;
    for (let job = this.#queue.shift(); job !== undefined; job = this.#queue.shift()) {
      let results: readonly (EncodedVariant | null)[] = [];
      if (this.#bytes < this.#maxBytes) {
        try {
          results = await this.#encode(job.src, job.transforms, job.config);
        } catch {
          // Astro's step encodes them again and reports any error itself.
        }
      }
      job.keys.forEach((key, index) => {
        const encoded = results[index] ?? null;
        if (encoded !== null) this.#bytes += encoded.output.data.byteLength;
        this.#finish(key, encoded);
      });
    }
    this.#running = false;
  }
}

/** The encoder process's file when this module runs from its source (tests, `astro dev`). */
const ENCODER_WORKER = fileURLToPath(new URL('./image-encoder-worker.ts', import.meta.url));

/**
 * The encoder process's file. In a build this module runs bundled, away from its sources, so
 * astro.config.mjs names the file in the service's config (`encoderWorker`); else the one
 * beside this module.
 */
export function encoderWorkerOf(config: ImageConfig): string {
  const named: unknown = (config.service.config as Record<string, unknown> | undefined)
    ?.encoderWorker;
  return typeof named === 'string' && named !== '' ? named : ENCODER_WORKER;
}

/**
 * Runs jobs in one encoder process (`image-encoder-worker.ts`, a child at the lowest priority
 * whose every fetch has a deadline), started on the first job. Every job answers: with null
 * variants when the process cannot start or goes away.
 */
export class EncoderProcess {
  readonly #sharpService: string;
  readonly #worker: string;
  readonly #fetchTimeoutMs: number | undefined;
  #child: ChildProcess | null = null;
  #broken = false;
  #nextId = 0;
  readonly #pending = new Map<number, (results: readonly (EncodedVariant | null)[]) => void>();

  /**
   * `sharpService`: URL of the sharp image service module the process encodes with; `worker`:
   * the process's file (`image-encoder-worker.ts`, by default beside this module);
   * `fetchTimeoutMs`: the deadline of its fetches (default: the build's `FETCH_TIMEOUT_MS`).
   */
  constructor(sharpService: string, options: { worker?: string; fetchTimeoutMs?: number } = {}) {
    this.#sharpService = sharpService;
    this.#worker = options.worker ?? ENCODER_WORKER;
    this.#fetchTimeoutMs = options.fetchTimeoutMs;
  }

  readonly encode: EncodeJob = (src, transforms, config) => {
    const child = this.#start();
    if (child === null) return Promise.resolve(transforms.map(() => null));
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      // JSON-safe: Astro's image config is plain data (its virtual module inlines it as JSON).
      const plainConfig: unknown = JSON.parse(JSON.stringify(config));
      const sent = child.send({ id, src, transforms, config: plainConfig }, (error) => {
        if (error) this.#fail();
      });
      if (!sent && !child.connected) this.#fail();
    });
  };

  /** Ends the process (once the image step no longer needs it). */
  close(): void {
    this.#broken = true;
    this.#child?.kill();
    this.#child = null;
    this.#fail();
  }

  #start(): ChildProcess | null {
    if (this.#broken) return null;
    if (this.#child !== null) return this.#child;
    if (!existsSync(this.#worker)) {
      console.warn(`[image-service] background encoding off: ${this.#worker} is missing`);
      this.#broken = true;
      return null;
    }
    try {
      const timeout = this.#fetchTimeoutMs;
      const child = spawn(process.execPath, [this.#worker], {
        env: {
          ...process.env,
          PREENCODE_SHARP_SERVICE: this.#sharpService,
          ...(timeout === undefined ? {} : { FETCH_TIMEOUT_MS: String(timeout) }),
        },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        serialization: 'advanced',
      });
      child.on('message', (message: unknown) => {
        this.#receive(message);
      });
      child.on('error', () => {
        this.#fail();
      });
      child.on('exit', () => {
        this.#broken = true;
        this.#child = null;
        this.#fail();
      });
      // Neither the process nor its channel keeps the build alive.
      child.unref();
      child.channel?.unref();
      this.#child = child;
      return child;
    } catch {
      this.#broken = true;
      return null;
    }
  }

  #receive(message: unknown): void {
    if (typeof message !== 'object' || message === null || !('id' in message)) return;
    const { id, results } = message as { id: unknown; results: unknown };
    const resolve = typeof id === 'number' ? this.#pending.get(id) : undefined;
    if (resolve === undefined) return;
    this.#pending.delete(id as number);
    resolve(Array.isArray(results) ? results.map(parseVariant) : []);
  }

  /** Answers every job still waiting with nothing. */
  #fail(): void {
    for (const resolve of this.#pending.values()) resolve([]);
    this.#pending.clear();
  }
}

/** A variant as the encoder process sent it, checked: anything malformed counts as not encoded. */
function parseVariant(value: unknown): EncodedVariant | null {
  if (typeof value !== 'object' || value === null) return null;
  const { digest, output, messages } = value as Record<string, unknown>;
  if (typeof digest !== 'string' || typeof output !== 'object' || output === null) return null;
  const { data, format } = output as Record<string, unknown>;
  if (!(data instanceof Uint8Array) || typeof format !== 'string' || !Array.isArray(messages)) {
    return null;
  }
  const told: EncodedVariant['messages'] = [];
  for (const entry of messages as unknown[]) {
    const { level, message } = (entry ?? {}) as Record<string, unknown>;
    if (
      (level === 'info' || level === 'warn' || level === 'error') &&
      typeof message === 'string'
    ) {
      told.push({ level, message });
    }
  }
  return { digest, output: { data, format }, messages: told };
}

function sharpServiceUrl(): string | null {
  try {
    return import.meta.resolve('astro/assets/services/sharp');
  } catch {
    return null;
  }
}

/**
 * The background queue, made on the first picture a page of a static build asks for (with the
 * image config, which names the encoder's file); null once Astro's image step has begun, and in
 * a render thread of the build (parallel-prerender.ts), which never encodes: Astro does on the
 * main thread, which pre-encodes what its own pages ask for.
 */
let preencoder: Preencoder | null | undefined;
function preencoderFor(config: ImageConfig): Preencoder | null {
  if (preencoder !== undefined) return preencoder;
  const serviceUrl = isMainThread ? sharpServiceUrl() : null;
  if (serviceUrl === null) return (preencoder = null);
  const encoder = new EncoderProcess(serviceUrl, { worker: encoderWorkerOf(config) });
  preencoder = new Preencoder(encoder.encode, {
    onStop: () => {
      encoder.close();
    },
  });
  return preencoder;
}

/** True while Astro pre-renders a static build and will emit this picture itself. */
function emittedAtBuild(src: unknown, config: ImageConfig): src is string {
  return currentAddStaticImage() !== null && isRemotePicture(src) && isRemoteAllowed(src, config);
}

const service: LocalImageService = {
  ...sharpService,
  getURL(options, config, logger) {
    // On demand, a variant the release has a file of is that file (its picture table,
    // listing-store.ts), not an `/_image` URL encoded on request: a listing view's cards show
    // page 1's files.
    if (isRemotePicture(options.src) && !emittedAtBuild(options.src, config)) {
      const url = releasePicture(transformKey(options.src, options));
      if (url !== null) return url;
    }
    return sharpService.getURL(options, config, logger);
  },
  async getSrcSet(options, config, logger) {
    const srcSet = (await sharpService.getSrcSet?.(options, config, logger)) ?? [];
    const { src } = options;
    const queue = emittedAtBuild(src, config) ? preencoderFor(config) : null;
    if (queue !== null && typeof src === 'string') {
      queue.schedule(
        src,
        [options as Transform, ...srcSet.map((entry) => entry.transform as Transform)],
        config,
      );
    }
    return srcSet;
  },
  async transform(bytes, transform, config, logger) {
    // Astro's image step has begun: nothing more is queued from now on.
    preencoder ??= null;
    const encoded = preencoder === null ? null : await preencoder.take(bytes, transform);
    if (encoded !== null) {
      for (const { level, message } of encoded.messages) logger[level](message);
      return encoded.output;
    }
    // Astro's image step at build: a remote source that is not a raster picture (an SVG) or
    // does not decode shows the placeholder rather than fail the build (picture-fallback.ts).
    const placeholder = isRemotePicture(transform.src) ? buildPlaceholder() : null;
    if (placeholder === null) return sharpService.transform(bytes, transform, config, logger);
    return encodeOrPlaceholder(
      transform.src,
      bytes,
      (source) => sharpService.transform(source, transform, config, logger),
      () => readFileSync(placeholder.file),
      placeholder.owners,
    );
  },
};

export default service;
