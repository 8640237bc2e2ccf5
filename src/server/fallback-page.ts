/**
 * spec §8 "if the error page itself fails, a fallback message with a link home": the page the
 * server sends when a page request ends in an error with nothing to show (the application
 * threw, or its error page failed and left an empty reply). Self-contained: no layout, no
 * upstream data, no script, styles inline in the document (allowed by its own CSP).
 */
import fr from '../lib/i18n/fr.json' with { type: 'json' };

// Text content only: no message goes into an attribute.
const escape = (text: string) => text.replace(/[&<>]/g, (c) => `&#${String(c.charCodeAt(0))};`);

const STYLE =
  'body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;' +
  'min-height:100vh;background:#fbf8f3;color:#1f2a44;text-align:center}' +
  'main{padding:2rem}a{color:#1f2a44;font-weight:600}';

/** The fallback page's HTML. */
export const FALLBACK_PAGE_HTML =
  '<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width,initial-scale=1">' +
  '<meta name="robots" content="noindex">' +
  `<title>${escape(fr['An error occured'])}</title><style>${STYLE}</style></head>` +
  `<body><main><h1>${escape(fr['An error occured'])}</h1>` +
  `<p>${escape(fr['Please go back or try again'])}</p>` +
  `<p><a href="/">${escape(fr['Return home'])}</a></p></main></body></html>`;

/** Headers of the fallback page: HTML, never cached, its inline style allowed by hash-free CSP. */
export const FALLBACK_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/** Whether a reply to `url` must be replaced by the fallback page: a page, an error, no body. */
export function needsFallback(
  url: string | undefined,
  status: number,
  bodyLength: number,
): boolean {
  const path = url ?? '/';
  return status >= 400 && bodyLength === 0 && !path.startsWith('/api/');
}
