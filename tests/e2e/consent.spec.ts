/**
 * Consent first: the cookie banner on a first visit, at 390 and 1280 px. Before any
 * choice: no container request and no personal data in the data layer, Consent Mode's default
 * (all denied) first. "Tout refuser": still none, the banner gone and the choice kept across
 * pages. The footer's "Gérer les cookies" reopens the choice by purpose. "Tout accepter": a
 * `consent update` granted at once, then the container (answered by a recorder, as
 * analytics.spec.ts does), the logged-in customer's `user_data` in the data layer before
 * `gtm.js`. The banner and the choice by purpose pass axe. Screenshots in test-results/visual/.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { CONSENT_COOKIE, parseStoredConsent } from '../../src/lib/analytics/consent.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { TEST_BASE_URL } from '../../scripts/lib/test-env.ts';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { expect, test, waitForNetworkQuiet } from './helpers.ts';

// A first visit: no kept choice (the other suites start with a refusal, playwright.config.ts).
test.use({ storageState: { cookies: [], origins: [] } });

const CONTAINER = 'https://www.googletagmanager.com/gtm.js?id=GTM-TEST123';
const marie = CUSTOMERS.marie;

/** The container stand-in: keeps what waits in the data layer and every later push. */
const RECORDER = `(() => {
  const layer = (window.dataLayer = window.dataLayer || []);
  const copy = (entry) =>
    Object.prototype.toString.call(entry) === '[object Arguments]'
      ? { gtag: Array.from(entry) }
      : JSON.parse(JSON.stringify(entry));
  const gtm = { received: layer.map(copy) };
  window.__gtm = gtm;
  const push = layer.push.bind(layer);
  layer.push = (...entries) => {
    entries.forEach((entry) => gtm.received.push(copy(entry)));
    return push(...entries);
  };
})();`;

interface Entry {
  gtag?: [string, string, Record<string, string>];
  event?: string;
  customer_email?: string;
}

/** Answers the container with the recorder; returns the container URLs requested. */
async function recordContainer(page: Page): Promise<string[]> {
  const requested: string[] = [];
  await page.route('https://www.googletagmanager.com/**', (route) => {
    requested.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: RECORDER });
  });
  return requested;
}

/** The page's data layer, gtag commands as `{ gtag: [...] }`. */
const dataLayer = (page: Page): Promise<Entry[]> =>
  page.evaluate(() =>
    ((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []).map((entry) =>
      Object.prototype.toString.call(entry) === '[object Arguments]'
        ? { gtag: Array.from(entry as ArrayLike<unknown>) }
        : (JSON.parse(JSON.stringify(entry)) as unknown),
    ),
  ) as Promise<Entry[]>;

/** `consent:default:analytics/ads`, `event:email` lines of the data layer. */
async function lines(page: Page): Promise<string[]> {
  return (await dataLayer(page)).flatMap((entry) => {
    if (entry.gtag) {
      const [, command, state] = entry.gtag;
      return [`consent:${command}:${state.analytics_storage}/${state.ad_storage}`];
    }
    return entry.event === undefined ? [] : [`${entry.event}:${entry.customer_email ?? '-'}`];
  });
}

async function logIn(page: Page): Promise<void> {
  const res = await page.request.post('/api/bigcommerce/loginCustomer', {
    data: [{ email: marie.email, password: marie.password }],
    // A state-changing method answers only the shop's own origin.
    headers: { origin: TEST_BASE_URL },
  });
  expect(res.status()).toBe(200);
}

async function keptChoice(page: Page) {
  const cookie = (await page.context().cookies()).find((c) => c.name === CONSENT_COOKIE);
  return parseStoredConsent(cookie ? decodeURIComponent(cookie.value) : undefined, Date.now());
}

/** axe's WCAG 2.1 A/AA violations of the page, or of `within` only. */
async function axe(page: Page, within?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const results = await (within === undefined ? builder : builder.include(within)).analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

for (const [name, viewport] of [
  ['390', { width: 390, height: 844 }],
  ['1280', { width: 1280, height: 900 }],
] as const) {
  test.describe(`${name} px`, () => {
    test.use({ viewport });

    test('first visit asks; refusing keeps everything out; the footer reopens; accepting loads the container after user_data', async ({
      page,
    }) => {
      test.setTimeout(90_000);
      const requested = await recordContainer(page);
      await logIn(page);

      // First visit: the banner, Consent Mode's default first, no personal data, no container.
      await page.goto('/c/matelas');
      const banner = page.getByRole('dialog', { name: t('consent.title') });
      await expect(banner).toBeVisible({ timeout: 15_000 });
      const accept = banner.getByRole('button', { name: t('consent.acceptAll'), exact: true });
      const refuse = banner.getByRole('button', { name: t('consent.rejectAll'), exact: true });
      await expect(banner.getByRole('button', { name: t('consent.customise') })).toBeVisible();
      // Equally prominent: same size, same colours, same type.
      const look = (button: typeof accept) =>
        button.evaluate((node) => {
          const style = getComputedStyle(node);
          const box = node.getBoundingClientRect();
          return [
            Math.round(box.width),
            Math.round(box.height),
            style.backgroundColor,
            style.color,
            style.fontSize,
            style.fontWeight,
          ];
        });
      expect(await look(accept)).toEqual(await look(refuse));
      // And no button over another.
      const customise = banner.getByRole('button', { name: t('consent.customise') });
      const boxes = await Promise.all([accept, refuse, customise].map((b) => b.boundingBox()));
      for (const [i, a] of boxes.entries()) {
        for (const b of boxes.slice(i + 1)) {
          if (!a || !b) throw new Error('a banner button has no box');
          const apart =
            a.x + a.width <= b.x ||
            b.x + b.width <= a.x ||
            a.y + a.height <= b.y ||
            b.y + b.height <= a.y;
          expect(apart).toBe(true);
        }
      }
      await expect.poll(() => lines(page)).toContain('view_item_list:-');
      expect((await lines(page))[0]).toBe('consent:default:denied/denied');
      expect(JSON.stringify(await dataLayer(page))).not.toContain(marie.email);
      expect(await lines(page)).not.toContain(`user_data:${marie.email}`);
      await page.waitForFunction(
        () =>
          getComputedStyle(document.querySelector('#cc-main .cm') ?? document.body).opacity === '1',
      );
      await page.screenshot({ path: `test-results/visual/consent-banner-${name}.png` });
      expect(await axe(page)).toEqual([]);

      // "Tout refuser": gone, kept, a denied update; still nothing personal, no container.
      await refuse.click();
      await expect(banner).toBeHidden();
      expect(await keptChoice(page)).toMatchObject({ analytics: false, ads: false });
      expect(await lines(page)).toContain('consent:update:denied/denied');
      expect(requested).toEqual([]);

      // The next page: no banner (the library is not even loaded), no container, no data.
      await page.goto('/marque/dormelune');
      await expect.poll(() => lines(page)).toContain('view_item_list:-');
      await waitForNetworkQuiet(page);
      expect(await lines(page)).toEqual([
        'consent:default:denied/denied',
        'consent:update:denied/denied',
        'view_item_list:-',
      ]);
      await expect(page.locator('#cc-main')).toHaveCount(0);
      expect(JSON.stringify(await dataLayer(page))).not.toContain(marie.email);
      expect(requested).toEqual([]);

      // The footer's link reopens the choice by purpose, as kept (analytics off).
      const manage = page.getByRole('contentinfo').getByRole('link', { name: t('consent.manage') });
      await manage.scrollIntoViewIfNeeded();
      await manage.click();
      const preferences = page.getByRole('dialog', { name: t('consent.preferencesTitle') });
      await expect(preferences).toBeVisible();
      await expect(
        preferences.getByRole('button', { name: t('consent.necessaryTitle') }),
      ).toBeVisible();
      const analytics = preferences.getByRole('checkbox', { name: t('consent.analyticsTitle') });
      await expect(analytics).not.toBeChecked();
      await expect(
        preferences.getByRole('checkbox', { name: t('consent.necessaryTitle') }),
      ).toBeDisabled();
      // Its fade-in done (the library's transition) before the screenshot.
      await page.waitForFunction(
        () =>
          getComputedStyle(document.querySelector('#cc-main .pm') ?? document.body).opacity === '1',
      );
      await page.screenshot({ path: `test-results/visual/consent-preferences-${name}.png` });
      // The dialog (the footer behind it holds the reviews provider's frame, not the shop's).
      expect(await axe(page, '#cc-main')).toEqual([]);
      // Escape closes it, changing nothing.
      await page.keyboard.press('Escape');
      await expect(preferences).toBeHidden();
      expect(requested).toEqual([]);

      // "Tout accepter" from the choice: the update at once, then user_data, then gtm.js.
      await manage.click();
      await expect(preferences).toBeVisible();
      await preferences.getByRole('button', { name: t('consent.acceptAll'), exact: true }).click();
      await expect(preferences).toBeHidden();
      expect(await keptChoice(page)).toMatchObject({ analytics: true, ads: true });
      await expect.poll(() => requested).toEqual([CONTAINER]);
      const after = await lines(page);
      const update = after.indexOf('consent:update:granted/granted');
      const userData = after.indexOf(`user_data:${marie.email}`);
      const start = after.indexOf('gtm.js:-');
      expect(update).toBeGreaterThan(0);
      expect(userData).toBeGreaterThan(update);
      expect(start).toBeGreaterThan(userData);

      // A page after consent: default, the kept update, user_data, then the container.
      await page.goto('/c/matelas');
      await expect.poll(() => requested.length).toBe(2);
      await expect.poll(() => lines(page)).toContain('gtm.js:-');
      const kept = await lines(page);
      expect(kept.slice(0, 3)).toEqual([
        'consent:default:denied/denied',
        'consent:update:granted/granted',
        `user_data:${marie.email}`,
      ]);
      expect(kept.indexOf('gtm.js:-')).toBeGreaterThan(2);
      await expect.poll(() => lines(page)).toContain(`view_item_list:${marie.email}`);
      await expect(page.locator('#cc-main')).toHaveCount(0);
    });

    test('keyboard: focus moves into the banner and stays there; Tab reaches "Tout refuser", Enter answers', async ({
      page,
    }) => {
      await page.goto('/');
      const banner = page.getByRole('dialog', { name: t('consent.title') });
      await expect(banner).toBeVisible({ timeout: 15_000 });
      const inBanner = () =>
        page.evaluate(() => document.querySelector('#cc-main')?.contains(document.activeElement));
      await expect.poll(inBanner).toBe(true);
      const refuse = banner.getByRole('button', { name: t('consent.rejectAll'), exact: true });
      let reached = false;
      for (let i = 0; i < 8 && !reached; i += 1) {
        await page.keyboard.press('Tab');
        expect(await inBanner()).toBe(true);
        reached = await refuse.evaluate((node) => node === document.activeElement);
      }
      expect(reached).toBe(true);
      await page.keyboard.press('Enter');
      await expect(banner).toBeHidden();
      expect(await keptChoice(page)).toMatchObject({ analytics: false, ads: false });
    });
  });
}
