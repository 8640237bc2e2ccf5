import type { Redirect } from './types.ts';

export interface RedirectTarget {
  /** A local path (`/p/12/matelas`), or the absolute URL of another site when `external`. */
  location: string;
  /** spec §2: a target that is not a local path needs a full-page navigation. */
  external: boolean;
}

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

/** The local path (with query and hash) of a `to_url`, or the external URL as it is. */
function targetOf(redirect: Redirect, options: MatchRedirectOptions): RedirectTarget {
  const toUrl = redirect.toUrl.trim();
  if (toUrl.startsWith('/') && !toUrl.startsWith('//')) {
    const url = new URL(toUrl, 'http://local');
    return {
      location: shopPath(redirect, withoutTrailingSlash(url.pathname)) + url.search + url.hash,
      external: false,
    };
  }
  let url: URL;
  try {
    url = new URL(toUrl);
  } catch {
    return { location: `/${toUrl.replace(/^\/+/, '')}`, external: false };
  }
  const hosts = (options.shopHosts ?? []).map((host) => host.toLowerCase());
  // A redirect to a catalogue entity always lands on this shop; a free URL only when it is ours.
  const local =
    redirect.toType !== 'url' || hosts.includes(url.host) || hosts.includes(url.hostname);
  if (!local) return { location: url.href, external: true };
  return {
    location: shopPath(redirect, withoutTrailingSlash(url.pathname)) + url.search + url.hash,
    external: false,
  };
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
 * BigCommerce does) gives the path of its to_url, on the shop's route of the entity. For `/p/{number}/rest` with no exact match,
 * `/rest` is matched and a product redirect gives `/p/{entity_id}/rest`. Null when nothing
 * matches. The first redirect of the list wins.
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
    return { location: `/p/${found.toEntityId}${withoutTrailingSlash(rest)}`, external: false };
  }
  return targetOf(found, options);
}

/** spec §2: a path ending with a slash, other than the root, 301s to the path without it. */
export function trailingSlashRedirect(pathname: string): string | null {
  if (pathname === '/' || !pathname.endsWith('/')) return null;
  return pathname.replace(/\/+$/, '') || '/';
}
