/**
 * Pictures of the pages a kept build renders again (page-publisher.ts), given as a full build
 * gives them.
 *
 * While a build pre-renders, Astro's `getImage` registers each picture a page shows through
 * `globalThis.astroAsset.addStaticImage`, which answers its final URL in the build's assets
 * folder (`/_astro/{name}_{hash}.webp`, the hash taken from the source and the transform); once
 * the pages are written, Astro encodes every registered picture there and removes the function.
 * From then on `getImage` answers `/_image?href=...` (the on-demand endpoint) instead, so a page
 * rendered again after the build would not have a full build's bytes, and a picture the build
 * never showed (a new product photo) would be encoded on request, by every server copy.
 *
 * So the capture keeps Astro's function from the build (`astro:build:ssr`, while it exists), and
 * the publisher puts it back for good, wrapped: each remote picture a page asks for is noted,
 * and before that page is written, `flush` encodes the ones its file is missing for, the way
 * Astro's image step does: the source fetched through Astro's redirect-checking fetch (only
 * hosts of `image.remotePatterns`), the same sharp service, the same transform and image config,
 * written whole under its final name. A page is never written before its pictures.
 *
 * A picture that cannot be fetched (404, no answer within the deadline, a host not allowed) or
 * encoded stops nothing: the shop's placeholder picture is encoded into its file instead, and
 * one line names the picture, its products and the page (`picture-fallback.ts`). The file then
 * exists: the picture is fetched again by the next full build.
 */
import { access, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AstroConfig } from 'astro';
import sharpService from 'astro/assets/services/sharp';
import { fetchWithRedirects, isRemoteAllowed } from 'astro/assets/utils';
import writeFileAtomic from 'write-file-atomic';
import { astroAsset, type AddStaticImage, type AstroAssetScope } from '../pictures/astro-asset.ts';
import type { PictureEntry } from '../../shop/loaders/listing-store.ts';
import { isRemotePicture, pictureFile, transformKey } from '../pictures/picture-key.ts';
import {
  logUnreachablePicture,
  PICTURE_PROBE_TIMEOUT_MS,
  PLACEHOLDER_PICTURE,
  type PictureOwners,
} from '../pictures/picture-fallback.ts';

/** What the capture keeps from the build for its pictures. */
export interface CapturedPictures {
  addStaticImage: AddStaticImage;
  /** `config.image`, what Astro's image step hands to the service. */
  imageConfig: AstroConfig['image'];
  /** `config.build.assets` (`_astro`): the folder remote pictures are emitted into. */
  assetsDir: string;
}

type Transform = Parameters<typeof sharpService.transform>[1];

/** Fetches a picture's source and encodes one transform of it: the encoded bytes. */
export type EncodePicture = (
  src: string,
  transform: Transform,
  imageConfig: AstroConfig['image'],
) => Promise<Uint8Array>;

const publishLogger = {
  info: (message: string) => {
    console.log(`[publish] ${message}`);
  },
  warn: (message: string) => {
    console.warn(`[publish] ${message}`);
  },
  error: (message: string) => {
    console.error(`[publish] ${message}`);
  },
};

/**
 * What Astro's image step does for a remote picture: fetch (with a deadline), then the sharp
 * service. Throws when it cannot (the caller encodes the placeholder instead).
 */
export const encodeRemotePicture: EncodePicture = async (src, transform, imageConfig) => {
  if (!isRemoteAllowed(src, imageConfig)) {
    throw new Error(`${src} is not an allowed picture host (image.remotePatterns)`);
  }
  const signal = AbortSignal.timeout(PICTURE_PROBE_TIMEOUT_MS);
  const response = await fetchWithRedirects({
    url: src,
    fetchFn: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, { ...init, signal }),
    imageConfig,
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`the picture ${src} answered ${String(response.status)}`);
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  const output = await sharpService.transform(
    bytes,
    { ...transform, src },
    imageConfig,
    publishLogger,
  );
  return output.data;
};

/** Encodes one transform of a local picture file: the encoded bytes. */
export type EncodeFile = (
  file: string,
  transform: Transform,
  imageConfig: AstroConfig['image'],
) => Promise<Uint8Array>;

/** The sharp service's encode of a file of the release (the placeholder picture). */
export const encodePictureFile: EncodeFile = async (file, transform, imageConfig) => {
  const bytes = await readFile(file);
  const output = await sharpService.transform(bytes, transform, imageConfig, publishLogger);
  return output.data;
};

export interface PicturePublisher {
  /**
   * Encodes the pictures asked for since the last flush that have no file yet (for `page`,
   * named in the log line of a picture that cannot be fetched): their files.
   */
  flush(page?: string): Promise<string[]>;
}

export interface PicturePublisherOptions {
  captured: CapturedPictures;
  clientDir: string;
  encode?: EncodePicture;
  /**
   * Told the pictures each flush wrote (their variant's key and URL), once their files are
   * there: the release's picture table (listing-store.ts `addPictures`), so that on-demand
   * pages show them too.
   */
  record?: (pictures: readonly PictureEntry[]) => void;
  /** Where the wrapped function is installed (tests); default `globalThis`. */
  scope?: AstroAssetScope;
  /**
   * The picture encoded instead of one that cannot be fetched: default the shop's placeholder
   * in the client folder (`PLACEHOLDER_PICTURE`, copied there from `public/`).
   */
  placeholder?: string;
  /** Encodes the placeholder file for a transform; default the sharp service. */
  encodePlaceholder?: EncodeFile;
  /** The products showing a picture, for the log line (`productsShowing`). */
  owners?: PictureOwners;
}

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * Puts Astro's `addStaticImage` back (wrapped) and returns what writes the pictures it notes.
 * For the kept build's process, once its build is done: every render from then on is a publish.
 */
export function installPicturePublisher(options: PicturePublisherOptions): PicturePublisher {
  const { captured, clientDir } = options;
  const encode = options.encode ?? encodeRemotePicture;
  const encodePlaceholder = options.encodePlaceholder ?? encodePictureFile;
  const placeholder = options.placeholder ?? path.join(clientDir, PLACEHOLDER_PICTURE);
  const owners = options.owners ?? (() => []);
  /** Files known to be on disk: the build's, then those written here. */
  const present = new Set<string>();
  const asked = new Map<string, { src: string; transform: Transform; url: string }>();

  const addStaticImage: AddStaticImage = (transform, hashProperties, originalFsPath) => {
    const url = captured.addStaticImage(transform, hashProperties, originalFsPath);
    const { src } = transform;
    if (isRemotePicture(src)) {
      const file = pictureFile(url, clientDir, captured.assetsDir);
      if (!present.has(file)) asked.set(file, { src, transform: transform as Transform, url });
    }
    return url;
  };
  astroAsset(options.scope).addStaticImage = addStaticImage;

  return {
    async flush(page) {
      const written: string[] = [];
      const recorded: PictureEntry[] = [];
      const pending = [...asked].filter(([file]) => !present.has(file));
      asked.clear();
      // Looked for all at once: a publish of 1,800 pages asks after a thousand pictures, most
      // of them the build's files, and one awaited look after the other held its pages back.
      const found = await Promise.all(pending.map(([file]) => exists(file)));
      for (const [index, [file, { src, transform, url }]] of pending.entries()) {
        if (found[index] !== true) {
          const data = await encode(src, transform, captured.imageConfig).catch(
            async (error: unknown) => {
              // A picture that cannot be fetched or encoded stops nothing: its page shows the
              // placeholder in its place, as a full build does (picture-fallback.ts).
              const reason = error instanceof Error ? error.message : String(error);
              logUnreachablePicture(
                src,
                reason.slice(0, 300),
                owners(src),
                `${page ?? 'its page'} shows the placeholder picture`,
              );
              return encodePlaceholder(placeholder, transform, captured.imageConfig);
            },
          );
          await mkdir(path.dirname(file), { recursive: true });
          // No fsync: a picture lost to a crash is encoded again by the next build.
          await writeFileAtomic(file, Buffer.from(data), { fsync: false });
          written.push(file);
          recorded.push([transformKey(src, transform), url]);
        }
        present.add(file);
      }
      if (recorded.length > 0) options.record?.(recorded);
      return written;
    },
  };
}
