/**
 * The content service's data for pages (spec §7 content service): the sleep-content entries,
 * the content pages, the technology blocks and the public tags.
 *
 * - At build, `siteContent()` reads everything once (every page shares one promise). When the
 *   content service cannot be read, the last good copy saved by an earlier build is used and the
 *   build log says so on one line; with no copy at all the build fails with that message rather
 *   than publish a site whose legal pages are missing.
 * - On request (SSR fallback of `[...path].astro`, the filtered list), `liveSiteContent()` reads
 *   the same through a short cache (60 s, single flight, the last good value kept 30 min for
 *   when the service is down), so an entry published after the last build is shown at once and
 *   replaced by its pre-rendered page at the next build.
 */
import type { SiteContent } from '../../lib/content/types.ts';
import { createCache } from '../connectors/http/cache.ts';
import { contentful, lastGoodDirectory } from '../config/config.ts';
import { getSiteContent } from '../connectors/contentful/index.ts';
import { handedOver, handOver } from './handoff.ts';
import { lastGoodCopy } from './last-good.ts';

export { technologiesFor } from '../../lib/content/technologies.ts';

export type { SiteContent };

const fetchSiteContent = () => getSiteContent(contentful());

let pending: Promise<SiteContent> | undefined;

/**
 * Everything the pre-rendered content pages need, read once per build (see the file comment);
 * once read, the copy handed over (loaders/handoff.ts), which a kept build replaces when it
 * publishes a content edit.
 */
export function siteContent(): Promise<SiteContent> {
  const handed = handedOver('site-content');
  if (handed !== undefined) return Promise.resolve(handed);
  pending ??= lastGoodCopy('site-content', fetchSiteContent, lastGoodDirectory()).then(
    (content) => {
      handOver('site-content', content);
      return content;
    },
  );
  return pending;
}

const LIVE_TTL_MS = 60_000;
const LIVE_GRACE_MS = 30 * 60_000;
const liveCache = createCache<SiteContent>({
  ttlMs: LIVE_TTL_MS,
  graceMs: LIVE_GRACE_MS,
  maxEntries: 1,
});

/**
 * Everything, read on request through the cache: one read a minute at most whatever the
 * requests ask (an unknown path costs no upstream call of its own).
 */
export function liveSiteContent(): Promise<SiteContent> {
  return liveCache.get('all', fetchSiteContent);
}
