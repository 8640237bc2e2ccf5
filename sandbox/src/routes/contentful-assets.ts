/**
 * The files of the Contentful emulation's assets, as Contentful's asset CDN serves them: no
 * token, immutable; pictures from the sandbox's pool, sounds drawn as WAV tones.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { assetHash, snapshot, type ContentfulConfig } from '../contentful-store.ts';
import type { Reply } from '../http.ts';
import { toneWav } from '../media.ts';
import { IMAGE_SIZES } from '../seed/image-pool.ts';

const ASSET_PATH = /^\/(images\/ctf|ctf-assets)\/([^/]+)\/([^/]+)\/([0-9a-f]{32})\/([^/]+)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves an asset's file: pictures (`/images/ctf/...`, the pool JPEG; `w`/`h` pick the smallest
 * pool size at least that large, as a stand-in for the Images API) and sounds (`/ctf-assets/...`,
 * a WAV). No token, like Contentful's asset CDN.
 */
export async function serveAsset(
  path: string,
  params: URLSearchParams,
  db: DatabaseSync,
  config: ContentfulConfig,
): Promise<Reply | undefined> {
  const match = ASSET_PATH.exec(path);
  if (!match) return undefined;
  const [, root, space, id = '', hash, file] = match;
  const asset = snapshot(db).assetById.get(id);
  let fileName: string;
  try {
    fileName = decodeURIComponent(file ?? '');
  } catch {
    return undefined;
  }
  if (
    !asset ||
    space !== config.spaceId ||
    hash !== assetHash(asset) ||
    fileName !== asset.fileName ||
    (root === 'images/ctf') !== (asset.kind === 'image')
  ) {
    return undefined;
  }
  if (asset.kind !== 'image') {
    return {
      status: 200,
      body: toneWav(Number(asset.source), asset.seconds ?? 3),
      headers: {
        'Content-Type': asset.contentType,
        'Cache-Control': IMMUTABLE,
        'Accept-Ranges': 'none',
      },
    };
  }
  const wanted = Math.max(Number(params.get('w')) || 0, Number(params.get('h')) || 0);
  const sizes = [...IMAGE_SIZES].reverse(); // smallest first
  const size =
    (wanted > 0 ? sizes.find((s) => Number(s.split('x')[0]) >= wanted) : undefined) ?? '1280x1280';
  try {
    const body = await readFile(join(config.imagesDir, size, `${asset.source}.jpg`));
    return {
      status: 200,
      body,
      headers: { 'Content-Type': 'image/jpeg', 'Cache-Control': IMMUTABLE },
    };
  } catch {
    return undefined;
  }
}
