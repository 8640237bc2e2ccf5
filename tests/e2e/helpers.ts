import {
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  type Request,
} from '@playwright/test';
import { formatPrice } from '../../src/lib/commerce/money.ts';
import { displayPrice } from '../../src/lib/commerce/price.ts';
import type { Product, Variant } from '../../src/lib/commerce/types.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { consentCookie } from './consent-cookie.ts';

/** The requests each page has in flight (every frame's), and when that last changed. */
const traffic = new WeakMap<Page, { inFlight: Map<Request, string>; changedAt: number }>();

function trackRequests(page: Page): void {
  const state = { inFlight: new Map<Request, string>(), changedAt: Date.now() };
  traffic.set(page, state);
  page.on('request', (request) => {
    state.inFlight.set(request, request.url());
    state.changedAt = Date.now();
  });
  const done = (request: Request): void => {
    state.inFlight.delete(request);
    state.changedAt = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

/**
 * Waits until none of the page's requests (its frames' too) has been in flight for `quietMs`.
 * Playwright's `waitForLoadState('networkidle')` can miss the idle moment of a lazy iframe
 * loaded after the page's own load (the footer's reviews widget, once a taller viewport shows
 * it) and then waits forever; this counts the requests itself, and a timeout names those still
 * in flight.
 */
export async function waitForNetworkQuiet(
  page: Page,
  { quietMs = 500, timeout = 30_000 } = {},
): Promise<void> {
  const state = traffic.get(page);
  if (!state) throw new Error('waitForNetworkQuiet: a page of this test only (helpers.ts test)');
  const deadline = Date.now() + timeout;
  for (;;) {
    const now = Date.now();
    if (state.inFlight.size === 0 && now - state.changedAt >= quietMs) return;
    if (now > deadline) {
      throw new Error(
        `the network never stayed quiet for ${String(quietMs)} ms; in flight: ${[...state.inFlight.values()].join(', ') || 'nothing'}`,
      );
    }
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(50, quietMs - (now - state.changedAt))),
    );
  }
}

/**
 * The browser suite's `test` and `expect`: every spec imports them from here, never from
 * `@playwright/test` (ESLint). An automatic fixture records every `console.error` message and
 * every uncaught page error (`pageerror`) of every page the test opens (`page`, and pages of
 * contexts it makes with `browser.newContext()`), and fails the test at teardown, listing
 * them. A spec that provokes errors on purpose (an injected upstream 5xx, a missing page)
 * declares the console lines it expects, narrowly, with
 * `test.use({ allowedConsoleErrors: anyOf(/…/, /…/) })`; page errors are never allowed.
 * The same fixture counts each page's requests in flight, for `waitForNetworkQuiet`.
 */
export const test = base.extend<{
  /** The console errors a spec provokes on purpose (one pattern: `anyOf`), or null. */
  allowedConsoleErrors: RegExp | null;
  consoleErrorGuard: undefined;
}>({
  allowedConsoleErrors: [null, { option: true }],
  consoleErrorGuard: [
    async ({ browser, context, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      const watch = (page: Page): void => {
        trackRequests(page);
        page.on('console', (message) => {
          if (message.type() !== 'error') return;
          const { url, lineNumber } = message.location();
          const line = `console.error on ${page.url()}: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`;
          if (allowedConsoleErrors?.test(line) !== true) errors.push(line);
        });
        page.on('pageerror', (error) => {
          errors.push(`page error on ${page.url()}: ${error.stack ?? error.message}`);
        });
      };
      const watchContext = (watched: BrowserContext): void => {
        watched.pages().forEach(watch);
        watched.on('page', watch);
      };
      watchContext(context);
      // Contexts the test makes itself (a second shopper, a browser without JavaScript).
      const newContext = browser.newContext.bind(browser);
      const patched: Browser['newContext'] = async (options) => {
        const made = await newContext(options);
        watchContext(made);
        return made;
      };
      browser.newContext = patched;
      try {
        await use(undefined);
      } finally {
        browser.newContext = newContext;
      }
      expect(errors, `console errors or page errors:\n${errors.join('\n')}`).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * One pattern matching any of `patterns` (for `allowedConsoleErrors`: Playwright reads an
 * array given to `test.use` as a value and its options, so the option is one RegExp).
 */
export function anyOf(...patterns: RegExp[]): RegExp {
  return new RegExp(patterns.map((pattern) => `(?:${pattern.source})`).join('|'));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The console line Chromium writes when a page the test opens on purpose answers `status` (a
 * 404 page, a blocked checkout, a refused cart link): for `allowedConsoleErrors`. `path` may be
 * followed by a query string.
 */
export function documentStatus(path: string, status: number): RegExp {
  const at = escape(path);
  return new RegExp(
    `^console\\.error on \\S+: Failed to load resource: the server responded with a status of ${String(status)} \\(.*\\S+${at}(?:\\?\\S*)?:0\\)$`,
  );
}

/**
 * The console line Chromium writes when an API call answers `status`, which the test provokes
 * (a wrong password, a quantity over stock, an upstream fault injected): for
 * `allowedConsoleErrors`. `method` may be an alternation (`loginCustomer|createCustomer`).
 */
export function apiStatus(method: string, status: number): RegExp {
  return new RegExp(
    `^console\\.error on \\S+: Failed to load resource: the server responded with a status of ${String(status)} \\(.*\\S+/api/\\w+/(?:${method}):0\\)$`,
  );
}

/** An e-mail address no account has yet (registrations in the shared sandbox). */
export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.fr`;
}

/** Calls the shop's API middleware the way islands do (spec §7: body = argument array). */
export async function api<T>(
  request: APIRequestContext,
  method: string,
  args: unknown[],
): Promise<T> {
  const res = await request.post(`/api/bigcommerce/${method}`, { data: args });
  expect(res.status(), `${method} answered ${res.status()}`).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

/** The price text a variant should show: the special price when on sale, else the regular. */
export function shownPrice(product: Product, variant: Variant): string {
  const price = displayPrice(product, variant);
  return formatPrice(price.special ?? price.regular);
}

/**
 * Waits until the page's islands have hydrated (Astro removes the `ssr` attribute). Islands
 * hydrated `client:visible` (or `client:linked` without a linked variant) only do so once
 * scrolled to: wait for those with `waitForIsland`.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await expect(
    page.locator('astro-island[ssr]:not([client="visible"]):not([client="linked"])'),
  ).toHaveCount(0);
}

/**
 * Scrolls `target` into view and waits until the island around it has hydrated; a control
 * that is no island (a product card's add-to-cart button) waits for the page's scripts.
 */
export async function waitForIsland(target: Locator): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const island = target.locator('xpath=ancestor::astro-island[1]');
  if ((await island.count()) > 0) {
    await expect(island).not.toHaveAttribute('ssr');
  } else {
    await target.page().waitForFunction(() => document.readyState === 'complete');
  }
}

/**
 * Clicks a link or button of the sticky header once it stands still. A test that scrolled down
 * has the header slid out of view (sticky-header.ts); Playwright's scroll to the link brings it
 * back sliding for 300 ms, and a press that starts on the link can end on the header's bar, which
 * is no click on the link. So the page goes to its top first, the header's state follows on the
 * next frame, and its slide ends before the click.
 */
export async function clickInHeader(target: Locator): Promise<void> {
  await target.page().evaluate(async () => {
    window.scrollTo({ top: 0, behavior: 'instant' });
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const header = document.querySelector('[data-sticky-header]');
    await Promise.all(header?.getAnimations().map((animation) => animation.finished) ?? []);
  });
  await target.click();
}

/**
 * Starts summing the layout shifts the page reports from now on (not those of its load before);
 * `layoutShiftSince` reads the sum.
 */
export async function watchLayoutShifts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const holder = window as unknown as { layoutShifts: number };
    holder.layoutShifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        holder.layoutShifts += (entry as unknown as { value: number }).value || 0;
      }
    }).observe({ type: 'layout-shift' });
  });
}

export async function layoutShiftSince(page: Page): Promise<number> {
  // Entries are delivered in a task after the frame that caused them.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() => setTimeout(resolve, 100));
      }),
  );
  return page.evaluate(() => (window as unknown as { layoutShifts: number }).layoutShifts);
}

/** Fills the sandbox's hosted checkout with a French address and pays; back on the shop. */
export async function payOnHostedCheckout(page: Page): Promise<void> {
  await page.getByLabel('Prénom', { exact: true }).fill('Camille');
  await page.getByLabel('Nom', { exact: true }).fill('Durand');
  await page.getByLabel('Adresse', { exact: true }).fill('12 rue des Lilas');
  await page.getByLabel('Code postal', { exact: true }).fill('69003');
  await page.getByLabel('Ville', { exact: true }).fill('Lyon');
  await page.getByLabel('Téléphone', { exact: true }).fill('0472000000');
  await page.getByRole('button', { name: 'Payer' }).click();
  await expect(page).toHaveURL(/\/paiement\?commande=\d+$/);
}

/** Fills the registration form (Camille Durand, `email`) and sends it. */
export async function submitRegistration(page: Page, email: string): Promise<void> {
  await page.getByLabel(t('register.firstName'), { exact: true }).fill('Camille');
  await page.getByLabel(t('register.lastName'), { exact: true }).fill('Durand');
  await page.getByLabel(t('login.email')).fill(email);
  await page.getByLabel(t('login.password')).fill('Literie2026');
  await page.getByLabel(t('I want to create an account')).check();
  await page.getByRole('button', { name: t('register.submit') }).click();
}

/**
 * The shopper's kept cookie choice (the consent banner's cookie), preset before the pages load.
 * Every suite starts with a refusal (playwright.config.ts): call `grantConsent` before the
 * first `goto` of a test that needs the tag-manager container or the customer's personal
 * fields in the data layer (by default analytics and ads granted; `{ ads: false }` for
 * analytics only). `refuseConsent` records "Tout refuser"; `forgetConsent` makes the next page
 * a first visit (the banner shows).
 */
export async function grantConsent(
  target: BrowserContext | Page,
  choice: { analytics?: boolean; ads?: boolean } = {},
): Promise<void> {
  const context = 'context' in target ? target.context() : target;
  await context.addCookies([
    consentCookie({ analytics: choice.analytics ?? true, ads: choice.ads ?? true }),
  ]);
}
