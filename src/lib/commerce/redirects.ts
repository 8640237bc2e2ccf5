import { localPath, redirectTarget, type RedirectTarget } from './redirect-target.ts';
import type { Redirect } from './types.ts';

export type { RedirectTarget };

export interface MatchRedirectOptions {
  /** Hosts of this shop (and of its BigCommerce store): absolute URLs there are local. */
  shopHosts?: readonly string[];
}

/**
 * A path as BigCommerce compares redirect paths: percent-decoded, lowercase, without trailing
 * slash (root kept as `/`), with one leading slash.
 */
export function normaliseRedirectPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURI(path);
  } catch {
    // A malformed escape is compared as written.
  }
  const bare = decoded.split(/[?#]/)[0] ?? '';
  const inner = bare.split('/').filter(Boolean).join('/');
  return `/${inner.toLowerCase()}`;
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}

/**
 * Where a `to_url` sends the browser (`redirectTarget`): a local path on the shop's route of
 * the entity, or an `http(s)` URL of another site; null for anything else (`javascript:`,
 * `data:`, `//host`...), and the request goes on.
 */
function targetOf(redirect: Redirect, options: MatchRedirectOptions): RedirectTarget | null {
  // A redirect to a catalogue entity always lands on this shop; a free URL only when it is ours.
  const shopHosts =
    redirect.toType === 'url' ? (options.shopHosts ?? []).map((host) => host.toLowerCase()) : 'any';
  const target = redirectTarget(redirect.toUrl, { kind: 'redirect-list', shopHosts });
  if (target === null || target.external) return target;
  const url = new URL(target.location, 'http://local');
  const location = localPath(
    shopPath(redirect, withoutTrailingSlash(url.pathname)) + url.search + url.hash,
  );
  return location === null ? null : { location, external: false };
}

/**
 * The shop route of a catalogue entity's BigCommerce path: products live at
 * `/p/{entity_id}{path}` (the same shape as the spec's `/p/{number}/...` rule), categories at
 * `/c{path}` and brands at `/marque/{slug}`, so an entity redirect never lands on a 404.
 */
function shopPath(redirect: Redirect, path: string): string {
  if (path === '/') return path;
  const id = redirect.toEntityId;
  switch (redirect.toType) {
    case 'product':
      return id === null || path.startsWith('/p/') ? path : `/p/${id}${path}`;
    case 'category':
      return path.startsWith('/c/') ? path : `/c${path}`;
    case 'brand':
      return path.startsWith('/marque/') ? path : `/marque/${path.split('/').pop() ?? ''}`;
    default:
      return path;
  }
}

const PRODUCT_PATH = /^\/p\/\d+(\/.+)$/;

/**
 * spec §2 redirections. An exact from_path match (case and trailing slash ignored, as
 * BigCommerce does) gives the path of its to_url, on the shop's route of the entity. For
 * `/p/{number}/rest` with no exact match, `/rest` is matched and a product redirect gives
 * `/p/{entity_id}/rest`. The first redirect of the list wins. Null when nothing matches, or when
 * the match's target is refused (`redirectTarget`: only local paths and `http(s)` URLs).
 */
export function matchRedirect(
  pathname: string,
  redirects: readonly Redirect[],
  options: MatchRedirectOptions = {},
): RedirectTarget | null {
  const path = normaliseRedirectPath(pathname);
  const exact = redirects.find((r) => normaliseRedirectPath(r.fromPath) === path);
  if (exact) return targetOf(exact, options);
  const product = PRODUCT_PATH.exec(withoutTrailingSlash(pathname));
  const rest = product?.[1];
  if (rest === undefined) return null;
  const restPath = normaliseRedirectPath(rest);
  const found = redirects.find((r) => normaliseRedirectPath(r.fromPath) === restPath);
  if (!found) return null;
  if (found.toType === 'product' && found.toEntityId !== null) {
    const location = localPath(`/p/${found.toEntityId}${withoutTrailingSlash(rest)}`);
    return location === null ? null : { location, external: false };
  }
  return targetOf(found, options);
}
