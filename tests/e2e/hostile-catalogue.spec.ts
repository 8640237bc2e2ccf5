/**
 * Pages built from a hostile catalogue (the sandbox's `hostile` option, set by npm
 * test: a product, a category and a banner whose HTML holds every payload of
 * sandbox/src/seed/hostile.ts, markup in names and custom fields) run none of it. First the
 * payloads are proved live on a raw page (no sanitiser, no CSP); then the product page, the
 * category page (pre-rendered), its listing view and the search results (rendered on request)
 * are loaded, hovered, clicked and opened: no alert, no `/xss/` request, no popup, and no CSP
 * violation either (the sanitiser stopped everything; the CSP is the second wall). The islands,
 * JSON-LD and dataLayer keep working under the CSP on these pages and on ordinary ones.
 */
import { type Locator, type Page } from '@playwright/test';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { HOSTILE, HOSTILE_PAYLOADS, PRODUCTS } from '@literie/sandbox/fixtures';
import {
  anyOf,
  clickInHeader,
  documentStatus,
  expect,
  test,
  waitForHydration,
  waitForIsland,
  waitForNetworkQuiet,
} from './helpers.ts';

const HOSTILE_PRODUCT = productPath({ id: HOSTILE.productId, name: HOSTILE.productName });
const HOSTILE_CATEGORY = `/c${HOSTILE.categoryUrl}`;
// The rich-text containers of the pages (RichText.astro).
const RICH_TEXT = '.product-description, .listing-description, [data-banner-id]';

// What the sanitiser lets through (src/shop/html/sanitize-html.ts), restated.
const ALLOWED_TAGS = new Set(
  (
    'p br hr div span strong b em i u s small sub sup mark abbr code ul ol li dl dt dd h2 h3 h4 ' +
    'blockquote a img table caption thead tbody tfoot tr th td'
  ).split(' '),
);
const ALLOWED_ATTRIBUTES = new Set(
  'href title rel src alt width height start colspan rowspan scope class data-banner-id'.split(' '),
);

interface Watch {
  /** Alerts, `/xss/` requests and popups seen so far, as `kind id-or-url`. */
  executions: string[];
  /** `securitypolicyviolation` events of the current document. */
  violations(): Promise<string[]>;
}

/** Listens for every sign of a payload running, and for CSP violations. */
async function watch(page: Page): Promise<Watch> {
  const executions: string[] = [];
  page.on('dialog', (dialog) => {
    executions.push(`dialog ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('request', (request) => {
    if (request.url().includes('/xss/')) executions.push(`request ${request.url()}`);
  });
  page.on('popup', (popup) => executions.push(`popup ${popup.url()}`));
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      w.__csp.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  return {
    executions,
    violations: () => page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []),
  };
}

/** Hovers, focuses and clicks what the payloads wait for inside `root`. */
async function provoke(page: Page, root: Locator): Promise<void> {
  for (const element of await root.locator('*').all()) {
    for (const type of ['mouseover', 'mouseenter', 'focus']) {
      await element.dispatchEvent(type).catch(() => undefined);
    }
  }
  // Links leaving the site are not followed (no network here); the rest is clicked.
  const clickable = root.locator('a:not([href^="http"]), button, summary, input, svg a');
  for (const element of await clickable.all()) {
    if (await element.isVisible()) {
      await element.click({ timeout: 2_000, noWaitAfter: true }).catch(() => undefined);
    }
  }
  await waitForNetworkQuiet(page);
}

/** Elements and attributes in the rich-text containers that the allow-list does not allow. */
async function outsideAllowList(page: Page): Promise<string[]> {
  return page.locator(RICH_TEXT).evaluateAll(
    (roots, [tags, attributes]) => {
      const bad: string[] = [];
      for (const root of roots) {
        for (const element of root.querySelectorAll('*')) {
          const tag = element.localName;
          if (!tags.includes(tag)) bad.push(`<${tag}>`);
          for (const name of element.getAttributeNames()) {
            if (!attributes.includes(name)) bad.push(`<${tag} ${name}>`);
          }
          const href = element.getAttribute('href');
          if (href !== null && !/^(https?:|mailto:|tel:|\/(?!\/)|#|\?)/i.test(href.trim())) {
            bad.push(`<${tag} href="${href}">`);
          }
          if (
            href !== null &&
            /^https?:/i.test(href) &&
            element.getAttribute('rel') !== 'noopener noreferrer'
          ) {
            bad.push(`<${tag} href="${href}"> without rel`);
          }
        }
      }
      if (document.baseURI !== location.href) bad.push(`base ${document.baseURI}`);
      return bad;
    },
    [[...ALLOWED_TAGS], [...ALLOWED_ATTRIBUTES]] as const,
  );
}

/** Loads `path`, provokes every rich text, and checks nothing ran and nothing was blocked. */
async function expectHarmless(page: Page, w: Watch, path: string): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  await waitForHydration(page);
  await expect(page.locator(RICH_TEXT).first()).toBeVisible();
  await provoke(page, page.locator(RICH_TEXT));
  expect(w.executions, path).toEqual([]);
  expect(await w.violations(), path).toEqual([]);
  expect(await outsideAllowList(page), path).toEqual([]);
  expect(new URL(page.url()).pathname, path).toBe(new URL(path, 'http://x').pathname);
}

/** The script-src of the page's policy (meta for pre-rendered pages, header otherwise). */
async function scriptSrc(page: Page, header: string | undefined): Promise<string> {
  const meta = await page
    .locator('meta[http-equiv="content-security-policy"]')
    .getAttribute('content', { timeout: 1_000 })
    .catch(() => null);
  const policy = meta ?? header ?? '';
  return /script-src ([^;]*)/.exec(policy)?.[1] ?? '';
}

// The raw pages run the payloads without the shop: what they fetch (`/xss/…`, `x`) is missing
// on purpose (404, or HTML where a stylesheet was asked); the CSP test opens the 404 page.
test.use({
  allowedConsoleErrors: anyOf(
    /^console\.error on \S+\/(?:__hostile-raw\/\d+|xss\/\d+): Failed to load resource: the server responded with a status of 404 \(Not Found\) \(\S+\/(?:__hostile-raw\/x|xss\/[\w/.]+):0\)$/,
    /^console\.error on \S+\/__hostile-raw\/\d+: Refused to apply style from '\S+\/xss\/\d+\.css' because its MIME type \('text\/html'\) is not a supported stylesheet MIME type/,
    documentStatus('/page-inconnue', 404),
  ),
});

// Each payload on its own fresh page, as its own test: one payload's leftovers (a refresh, a
// dialog, a navigation) cannot reach the next, and a payload that stops running in this Chromium
// is named in the run's summary. The poll waits up to 15 s: liveness is the point, not speed.
for (const payload of HOSTILE_PAYLOADS.filter((p) => p.live)) {
  test(`the payloads are live: ${payload.id} (${payload.what}) runs in a raw page without sanitiser or CSP`, async ({
    page,
  }) => {
    const w = await watch(page);
    const path = `/__hostile-raw/${payload.id}`;
    await page.route(`**${path}`, (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><html lang="fr"><head><title>brut</title></head><body><main>${payload.html}</main></body></html>`,
      }),
    );
    await page.goto(path);
    await provoke(page, page.locator('main'));
    const marker = new RegExp(`^(dialog ${payload.id}|request .*/xss/${payload.id}\\b)`);
    await expect
      .poll(() => w.executions.some((e) => marker.test(e)), {
        message: payload.what,
        timeout: 15_000,
      })
      .toBe(true);
  });
}

test('hostile product page: nothing runs; name, JSON-LD, dataLayer and the cart work', async ({
  page,
}) => {
  const w = await watch(page);
  await expectHarmless(page, w, HOSTILE_PRODUCT);

  // Markup in the name is text everywhere: heading, title, JSON-LD, dataLayer.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOSTILE.productName);
  expect(await page.title()).toContain(HOSTILE.productName);
  const jsonLd = await page.locator('script[type="application/ld+json"]').textContent();
  const product = (JSON.parse(jsonLd ?? '[]') as { '@type': string; name: string }[]).find(
    (entry) => entry['@type'] === 'Product',
  );
  expect(product?.name).toBe(HOSTILE.productName);
  const description = await page.locator('meta[name="description"]').getAttribute('content');
  expect(description).toMatch(/^Texte piégé : chaque charge/);
  const view = await page.evaluate(() =>
    (
      (
        window as unknown as {
          dataLayer?: { event?: string; ecommerce?: { items: { item_name: string }[] } }[];
        }
      ).dataLayer ?? []
    ).find((push) => push.event === 'view_item'),
  );
  expect(view?.ecommerce?.items[0]?.item_name).toBe(HOSTILE.productName);
  // The video custom field (`javascript:`) gives no link.
  await expect(page.locator('a[href^="javascript" i]')).toHaveCount(0);

  // The islands hydrate under the CSP: add to cart, the sidebar shows the name as text.
  const add = page.getByRole('button', { name: /^Ajouter au panier/ }).first();
  await waitForIsland(add);
  await add.click();
  await expect(page.getByRole('button', { name: t('cart.added') })).toBeVisible();
  await clickInHeader(page.getByRole('banner').getByRole('link', { name: /Panier$/ }));
  const sidebar = page.getByRole('dialog', { name: t('cart.title') });
  await expect(sidebar).toBeVisible();
  await expect(sidebar.getByRole('link', { name: HOSTILE.productName, exact: true })).toBeVisible();
  await waitForNetworkQuiet(page);
  expect(w.executions).toEqual([]);
  expect(await w.violations()).toEqual([]);
});

test('hostile category page (pre-rendered), its listing view and search results (on request): nothing runs', async ({
  page,
}) => {
  const w = await watch(page);
  await expectHarmless(page, w, HOSTILE_CATEGORY);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOSTILE.categoryName);
  await expect(page.locator('[data-card]').first()).toContainText('Échantillon piégé');
  const list = await page.evaluate(() =>
    (
      (
        window as unknown as {
          dataLayer?: { event?: string; ecommerce?: { items: { item_name: string }[] } }[];
        }
      ).dataLayer ?? []
    ).find((push) => push.event === 'view_item_list'),
  );
  expect(list?.ecommerce?.items.map((item) => item.item_name)).toContain(HOSTILE.productName);

  // The listing view is rendered at request time: the CSP comes as a header.
  const view = `${HOSTILE_CATEGORY}?sort=2&page=1`;
  const response = await page.request.get(view);
  const header = response.headers()['content-security-policy'];
  expect(header).toContain("script-src 'self'");
  await expectHarmless(page, w, view);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOSTILE.categoryName);

  const search = '/resultats-de-recherche/echantillon';
  await page.goto(search);
  await waitForHydration(page);
  await expect(page.locator('[data-card]').first()).toContainText(HOSTILE.productName);
  await provoke(page, page.locator('main'));
  expect(w.executions).toEqual([]);
  expect(await w.violations()).toEqual([]);
});

test('ordinary pages under the CSP: no unsafe-inline script, no violation, islands and analytics work', async ({
  page,
}) => {
  const w = await watch(page);
  for (const path of [
    '/',
    '/c/matelas',
    '/c/matelas?sort=2&page=2',
    productPath({ id: PRODUCTS.trackingNone, name: 'x' }),
    '/panier',
    '/connexion',
    '/page-inconnue',
  ]) {
    const response = await page.goto(path);
    await waitForHydration(page);
    const script = await scriptSrc(page, response?.headers()['content-security-policy']);
    expect(script, path).toContain("'self'");
    expect(script, path).not.toContain("'unsafe-inline'");
    expect(await w.violations(), path).toEqual([]);
  }
  // The login modal (account island) and the dataLayer on a listing.
  await page.goto('/c/matelas');
  await waitForHydration(page);
  await expect
    .poll(() =>
      page.evaluate(() =>
        ((window as unknown as { dataLayer?: { event?: string }[] }).dataLayer ?? []).some(
          (push) => push.event === 'view_item_list',
        ),
      ),
    )
    .toBe(true);
  await clickInHeader(page.getByRole('banner').getByRole('link', { name: t('header.login') }));
  await expect(page.getByRole('dialog', { name: t('account.title') })).toBeVisible();
  expect(await w.violations()).toEqual([]);
  expect(w.executions).toEqual([]);
});
