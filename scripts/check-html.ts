/**
 * `npm test`'s html step (`npm run test:html`): html-validate with the shop's configuration
 * (`.htmlvalidate.mjs`: the recommended preset, a few rules set aside, each with its reason)
 * over a representative set of pages of the production build (`DIST_DIR`, default `dist`),
 * served the way `npm start` serves it (`lib/built-shop.ts`): home, a category, its listing view,
 * a product, the brands and a brand, search results, cart, login, sign-up, "Les yeux fermés" and
 * an episode, a content page, the reseller login, the 404 and 500 pages and the server's own
 * fallback page; on the sandbox, also a customer's account page and, logged in as a reseller,
 * the reseller area and its cart. Each page must answer its status (a 5xx is asked again twice,
 * as an on-demand page's upstream calls may outrun their budget on a busy machine). Exits 1
 * listing every finding by page, line and rule.
 */
import { HtmlValidate, type Message } from 'html-validate';
import config from '../.htmlvalidate.mjs';
import { FALLBACK_PAGE_HTML } from '../src/server/fallback-page.ts';
import { pagePaths, serveBuiltShop } from './lib/built-shop.ts';
import { readEnvironment } from '../src/shop/config/environment.ts';

/**
 * Astro's island prelude, written once before a page's first island wherever it stands (in
 * `<body>`, in a `<div>`), where HTML wants `<style>` in the head: browsers apply it anywhere,
 * and Astro offers no way to place it. Removed before validating, exactly this text: any other
 * `<style>` in the body still fails.
 */
export const ASTRO_ISLAND_STYLE =
  '<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>';

interface Page {
  path: string;
  status: number;
  /** A session cookie: the page as that customer sees it. */
  as?: 'customer' | 'reseller';
}

/** The sandbox's seeded accounts (sandbox/src/seed/customers.ts). */
const ACCOUNTS = {
  customer: { email: 'marie.martin@example.fr', password: 'Sommeil2024' },
  reseller: { email: 'boutique@literie-atlantique.fr', password: 'Atlantique2024' },
} as const;

/** The pages checked, from the build's own (the first of each kind). */
export function pagesToCheck(builtPages: readonly string[], sandbox: boolean): Page[] {
  const first = (prefix: string, preferred?: string) =>
    (preferred !== undefined && builtPages.includes(preferred)
      ? preferred
      : builtPages.find((p) => p.startsWith(prefix))) ?? `${prefix}absent`;
  const category = first('/c/', '/c/matelas');
  const pages: Page[] = [
    { path: '/', status: 200 },
    { path: category, status: 200 },
    { path: `${category}?sort=2`, status: 200 },
    { path: first('/p/'), status: 200 },
    { path: '/marque', status: 200 },
    { path: first('/marque/'), status: 200 },
    { path: '/resultats-de-recherche/matelas', status: 200 },
    // A typo's corrected results, and the no-results page (categories, tips...).
    { path: '/resultats-de-recherche/matelat', status: 200 },
    { path: '/resultats-de-recherche/zzqxw', status: 200 },
    { path: '/panier', status: 200 },
    { path: '/connexion', status: 200 },
    { path: '/inscription', status: 200 },
    { path: '/les-yeux-fermes', status: 200 },
    { path: first('/les-yeux-fermes/'), status: 200 },
    { path: '/cgv', status: 200 },
    { path: '/espace-revendeur/connexion', status: 200 },
    { path: '/page-introuvable', status: 404 },
    // A cart link that opens nothing says so.
    { path: '/panier?id=6f0b8c1e-4b1a-4c55-9a57-1f2d3c4b5a69&token=faux', status: 404 },
    { path: '/500', status: 500 },
  ];
  if (sandbox) {
    pages.push(
      { path: '/mon-compte/mes-informations', status: 200, as: 'customer' },
      { path: '/espace-revendeur', status: 200, as: 'reseller' },
      { path: '/espace-revendeur/panier', status: 200, as: 'reseller' },
    );
  }
  return pages;
}

/** Logs in through the shop's API; the session's cookies as a `Cookie` header. */
async function logIn(baseUrl: string, account: keyof typeof ACCOUNTS): Promise<string> {
  const response = await fetch(`${baseUrl}/api/bigcommerce/loginCustomer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify([ACCOUNTS[account]]),
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`logging in as the ${account}: ${String(response.status)}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .join('; ');
}

async function fetchPage(
  url: string,
  status: number,
  cookie: string | undefined,
): Promise<{ status: number; html: string }> {
  for (let attempt = 0; ; attempt++) {
    // A redirect is a wrong status too (a logged-in page sending back to the login...).
    const response = await fetch(url, {
      redirect: 'manual',
      headers: cookie === undefined ? {} : { cookie },
      signal: AbortSignal.timeout(30_000),
    });
    const html = await response.text();
    if (response.status === status || response.status < 500 || attempt === 2) {
      return { status: response.status, html };
    }
    await new Promise((resolve) => setTimeout(resolve, 2000 * 2 ** attempt));
  }
}

function format(page: string, m: Message): string {
  return `  ${page}:${String(m.line)}:${String(m.column)}  ${m.ruleId}  ${m.message}${m.selector ? `  (${m.selector})` : ''}`;
}

async function main(): Promise<number> {
  const started = performance.now();
  // Unset, the checks' own port (4391), apart from `npm start`'s.
  const settings = readEnvironment(['DIST_DIR', 'PORT'], { PORT: '4391', ...process.env });
  const distDir = settings.DIST_DIR;
  const shop = await serveBuiltShop({ distDir, port: settings.PORT });
  const fetched: { page: Page; status: number; html: string }[] = [];
  try {
    const sandbox = shop.upstreamEnv.BIGCOMMERCE_STORE_HASH === 'sandbox';
    const cookies = new Map<string, string>();
    for (const page of pagesToCheck(pagePaths(shop.clientDir), sandbox)) {
      let cookie: string | undefined;
      if (page.as !== undefined) {
        cookie = cookies.get(page.as) ?? (await logIn(shop.baseUrl, page.as));
        cookies.set(page.as, cookie);
      }
      fetched.push({ page, ...(await fetchPage(shop.baseUrl + page.path, page.status, cookie)) });
    }
  } finally {
    // Validation takes the CPU: the server is done first.
    await shop.close();
  }
  fetched.push({
    page: { path: '(fallback page)', status: 0 },
    status: 0,
    html: FALLBACK_PAGE_HTML,
  });

  const validator = new HtmlValidate(config);
  let findings = 0;
  let wrongStatus = 0;
  for (const { page, status, html } of fetched) {
    if (status !== page.status) {
      console.error(`[html] ${page.path} answered ${String(status)}, not ${String(page.status)}`);
      wrongStatus++;
    }
    const report = await validator.validateString(
      html.replaceAll(ASTRO_ISLAND_STYLE, ''),
      page.path,
    );
    const messages = report.results.flatMap((result) => result.messages);
    for (const m of messages) console.error(format(page.path, m));
    findings += messages.length;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `[html] ${String(fetched.length)} pages validated, ${String(findings)} finding(s)` +
      `${wrongStatus > 0 ? `, ${String(wrongStatus)} wrong status(es)` : ''} in ${seconds.toFixed(1)} s`,
  );
  return findings + wrongStatus === 0 ? 0 : 1;
}

if (import.meta.main) process.exit(await main());
