/**
 * The shop's Content-Security-Policy, as Astro's `security.csp` takes it: Astro adds
 * to `script-src` and `style-src` the hashes of the scripts and styles it emits (hydration,
 * bundled scripts inlined, inline styles) and writes the policy in a `<meta http-equiv>` of
 * pre-rendered pages and in the `Content-Security-Policy` header of on-demand ones.
 *
 * Scripts: `'self'` and hashes only (our own inline scripts, `inline-scripts.ts`), never
 * `'unsafe-inline'`, so a handler or script element slipping into a page does not run; with
 * `GTM_CONTAINER_ID` set, also the tag manager's origin (`TAG_MANAGER_SOURCES`). Styles:
 * `'self'` and hashes; `style` attributes (star widths, swatch colours) are allowed by
 * `style-src-attr`, which cannot run script. `frame-ancestors`, `report-uri` and `sandbox` are
 * ignored in a meta element: the server sends frame-ancestors / X-Frame-Options as headers.
 * Reads no environment: astro.config.mjs passes the settings.
 */
import { createHash } from 'node:crypto';
import type { AstroUserConfig } from 'astro';
import { TAG_MANAGER_ORIGIN } from '../../lib/analytics/tag-manager.ts';

type CspConfig = Exclude<NonNullable<NonNullable<AstroUserConfig['security']>['csp']>, boolean>;
type CspDirective = NonNullable<CspConfig['directives']>[number];
type CspHash = `sha256-${string}`;

/**
 * The policy of every reply of the picture proxy `/_image` (image-proxy.ts): a picture opened
 * as a document loads nothing and runs nothing. The server's framing rule leaves it alone
 * (`src/server/headers.ts`; `X-Frame-Options` still applies).
 */
export const PICTURE_CSP = "default-src 'none'; sandbox";

export interface CspSettings {
  /** Origins pictures come from besides the shop (image hosts, the sandbox): image-hosts.ts. */
  imageOrigins: readonly string[];
  /** Origins audio and video come from (the content service's asset hosts, the sandbox). */
  mediaOrigins?: readonly string[];
  /** Origins of the hosted checkout the `/paiement` form ends on (after its 303). */
  checkoutOrigins: readonly string[];
  /** Origins of the frames a page may show (the reviews carousel); none by default. */
  frameOrigins?: readonly string[];
  /** Texts of the shop's inline scripts, allowed by hash. */
  inlineScripts: readonly string[];
  /** The tag-manager container is set (`GTM_CONTAINER_ID`): its origins are allowed. */
  tagManager?: boolean;
}

/**
 * What the tag-manager container and the Google tags it runs (GA4) load and send to, from
 * Google's guide "Use Tag Manager with a Content Security Policy": the container and gtag
 * scripts from www.googletagmanager.com, hits to the Google Analytics regions' collectors (and
 * their pixel fallback). Custom HTML tags and Custom JavaScript variables need
 * `'unsafe-inline'` / `'unsafe-eval'`, which the shop never allows: use Tag Manager's templates.
 */
export const TAG_MANAGER_SOURCES = {
  script: [TAG_MANAGER_ORIGIN],
  connect: [
    TAG_MANAGER_ORIGIN,
    'https://www.google.com',
    'https://*.google-analytics.com',
    'https://*.analytics.google.com',
  ],
  img: [TAG_MANAGER_ORIGIN, 'https://*.google-analytics.com'],
} as const;

/** Contentful serves audio and video files from these hosts (assets of sleep-content entries). */
export const CONTENTFUL_MEDIA_ORIGINS = [
  'https://assets.ctfassets.net',
  'https://videos.ctfassets.net',
];

// BigCommerce's hosted checkout lives on the store's `*.mybigcommerce.com` domain unless a
// checkout domain of its own is configured (`CHECKOUT_ORIGINS`).
export const DEFAULT_CHECKOUT_ORIGINS = ['https://*.mybigcommerce.com'];

const ORIGIN = /^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i;

export class CspSettingsError extends Error {
  readonly code = 'INVALID_CSP_SETTINGS';
}

/** The CSP hash source of a script's exact text (what the browser hashes). */
export function scriptHash(code: string): CspHash {
  return `sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}`;
}

/**
 * `CHECKOUT_ORIGINS` (comma-separated origins such as `https://paiement.example.fr`) plus the
 * sandbox's origin when the shop runs on it; the BigCommerce default when neither is given.
 * Throws CspSettingsError on an entry that is not a bare http(s) origin.
 */
export function parseCheckoutOrigins(
  value: string | undefined,
  sandboxOrigin: string | null,
): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const entry of entries) {
    if (!ORIGIN.test(entry)) {
      throw new CspSettingsError(`CHECKOUT_ORIGINS: "${entry}" is not an http(s) origin`);
    }
  }
  if (sandboxOrigin !== null) entries.push(sandboxOrigin);
  return entries.length > 0 ? [...new Set(entries)] : [...DEFAULT_CHECKOUT_ORIGINS];
}

/** `security.csp` of astro.config.mjs. */
export function cspConfig(settings: CspSettings): CspConfig {
  const sources = (list: readonly string[]) => list.map((source) => ` ${source}`).join('');
  const tags = settings.tagManager === true ? TAG_MANAGER_SOURCES : null;
  const directives: CspDirective[] = [
    "default-src 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    `img-src 'self' data:${sources([...settings.imageOrigins, ...(tags?.img ?? [])])}`,
    "font-src 'self'",
    `connect-src 'self'${sources(tags?.connect ?? [])}`,
    `media-src 'self'${sources(settings.mediaOrigins ?? [])}`,
    (settings.frameOrigins ?? []).length === 0
      ? "frame-src 'none'"
      : `frame-src${sources(settings.frameOrigins ?? [])}`,
    // The service worker `/sw.js` (spec §7); no other worker.
    "worker-src 'self'",
    "manifest-src 'self'",
    `form-action 'self'${sources(settings.checkoutOrigins)}`,
  ];
  return {
    algorithm: 'SHA-256',
    directives,
    // Astro writes `script-src 'self'` when no resource is given; with the container, its origin.
    scriptDirective: {
      ...(tags === null ? {} : { resources: ["'self'", ...tags.script] }),
      hashes: settings.inlineScripts.map(scriptHash),
    },
    styleDirective: {
      resources: ["'self'", { resource: "'unsafe-inline'", kind: 'attribute' }],
    },
  };
}
