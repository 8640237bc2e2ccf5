/**
 * The shop's `/_image` endpoint (astro.config.mjs `image.endpoint`), in `astro dev` and in the
 * built server alike: the picture proxy of `image-proxy.ts` over the build's image config
 * (its hosts, `image-hosts.ts`). Encoded variants go to the folder the storefront server
 * names (`src/server/serve.ts`: under the releases folder, shared by the copies that share it),
 * else to `{STATE_DIR}/picture-cache` (`config.ts`).
 */
import type { APIRoute } from 'astro';
import { imageConfig } from 'astro:assets';
import { pictureCacheDirectory } from '../../shop/config/config.ts';
import { createImageProxy, refusal } from './image-proxy.ts';
import { log } from '../../shop/config/log.ts';
import { namedPictureCacheDir } from './picture-cache.ts';

export const prerender = false;

const proxy = createImageProxy({
  imageConfig,
  cacheDir: () => namedPictureCacheDir() ?? pictureCacheDirectory(),
  // A source that failed (unreachable, refused) or a variant that could not be made: 502.
  warn: (message) => {
    log.warn({ detail: message }, '[image] picture unavailable');
  },
});

export const GET: APIRoute = ({ url }) => proxy.handle(url);

/** Any other method: 405 in the proxy's plain form, not Astro's HTML not-found page. */
export const ALL: APIRoute = ({ request, url }) =>
  request.method === 'HEAD'
    ? proxy.handle(url)
    : refusal(405, 'method not allowed', { Allow: 'GET, HEAD' });
