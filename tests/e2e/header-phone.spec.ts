/**
 * The shell on phones: the sticky header back on scroll-up takes at most 120 px from
 * 360 to 430 px wide (it took 237 px: the top bar and the reassurance banner rode along), a
 * reseller's header keeps its links on one row, and navigating back and forth logs no error
 * (the skipped page transitions' AbortError). Screenshots in test-results/visual. (The top
 * bar's offer link is a rule of the banner, `tests/unit/top-bar.test.ts`: the test build's
 * banner is the hostile one, with links of its own.)
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { t } from '../../src/lib/i18n/index.ts';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { expect, test, waitForHydration } from './helpers.ts';

const SHOTS = 'test-results/visual';
mkdirSync(SHOTS, { recursive: true });
const PHONES = [360, 390, 430] as const;
const MAX_HEADER_PX = 120;
const header = (page: Page) => page.locator('[data-sticky-header]');

async function shoot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** Resolves once a scroll by `dy` is over and the header's transition has settled. */
async function scrollBy(page: Page, dy: number): Promise<void> {
  await page.evaluate(async (delta) => {
    const ended = new Promise<void>((resolve) => {
      window.addEventListener(
        'scrollend',
        () =>
          requestAnimationFrame(() => {
            resolve();
          }),
        { once: true },
      );
    });
    window.scrollBy({ top: delta, behavior: 'instant' });
    await ended;
  }, dy);
  await header(page).evaluate(async (el) => {
    await Promise.all(el.getAnimations().map((a) => a.finished));
  });
}

for (const width of PHONES) {
  test(`at ${String(width)} px the header back on scroll-up takes at most ${String(MAX_HEADER_PX)} px, the brand, search and links in it`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 844 });
    await page.goto('/c/matelas');
    await shoot(page, `header-phone-top-${String(width)}`);
    await scrollBy(page, 1500);
    await expect(header(page)).toHaveAttribute('data-header-hidden', '');
    await scrollBy(page, -300);
    await expect(header(page)).not.toHaveAttribute('data-header-hidden');
    const box = await header(page).boundingBox();
    expect(box?.y).toBe(0);
    expect(box?.height).toBeGreaterThan(0);
    expect(box?.height).toBeLessThanOrEqual(MAX_HEADER_PX);
    // The shop's name, the search field and the three links are in it, on screen.
    const bar = header(page);
    await expect(bar.getByRole('link', { name: new RegExp(t('shop.name')) })).toBeInViewport();
    await expect(bar.getByRole('searchbox', { name: t('search.label') })).toBeInViewport();
    for (const name of [t('header.login'), t('wishlist.title'), t('header.cart')]) {
      await expect(bar.getByRole('link', { name: new RegExp(name) })).toBeInViewport();
    }
    await shoot(page, `header-phone-scrolled-up-${String(width)}`);
  });
}

test('a reseller’s header keeps its logo, badge and links on one row at 360, 390 and 430 px', async ({
  page,
}) => {
  const reseller = CUSTOMERS.resellerWithSellers;
  await page.goto('/espace-revendeur/connexion');
  await waitForHydration(page);
  await page.getByLabel(t('login.email')).fill(reseller.email);
  await page.getByLabel(t('login.password')).fill(reseller.password);
  await page.getByRole('button', { name: t('login.submit') }).click();
  // A login takes its time on a loaded machine (the password hash, the customer's reads).
  await expect(page).toHaveURL(/\/espace-revendeur$/, { timeout: 20_000 });
  // The area's own page and a catalogue page served in reseller mode.
  for (const path of ['/espace-revendeur', '/c/matelas']) {
    for (const width of PHONES) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(path);
      const bar = header(page);
      const row = [
        bar.getByRole('link', { name: new RegExp(t('header.logo')) }),
        bar.getByText(t('reseller.space'), { exact: true }),
        bar.locator('[data-account-link]'),
        bar.locator('[data-wishlist-link]'),
        bar.locator('[data-cart-link]'),
      ];
      const middles: number[] = [];
      for (const part of row) {
        await expect(part).toBeVisible();
        const box = await part.boundingBox();
        if (box === null) throw new Error(`${path} ${String(width)}: not laid out`);
        expect(box.x + box.width, `${path} ${String(width)}`).toBeLessThanOrEqual(width);
        middles.push(box.y + box.height / 2);
      }
      // One row: every part centred on the same line (a wrapped one sits 50 px lower).
      const spread = Math.max(...middles) - Math.min(...middles);
      expect(spread, `${path} at ${String(width)} px: ${middles.join(', ')}`).toBeLessThanOrEqual(
        4,
      );
      await shoot(page, `header-reseller${path.replace(/\W+/g, '-')}-${String(width)}`);
    }
  }
});

test('navigating back and forth between pages logs no error (skipped page transitions)', async ({
  page,
}) => {
  await page.goto('/c/matelas');
  for (const index of [0, 1]) {
    await page.locator('#contenu a[href^="/p/"]').nth(index).click();
    await expect(page).toHaveURL(/\/p\//);
    await page.waitForLoadState('load');
    await page.goBack();
    await expect(page).toHaveURL(/\/c\/matelas$/);
    await page.waitForLoadState('load');
  }
  await page.goto('/');
  await page.goBack();
  await page.waitForLoadState('load');
  // "No error" is asserted by the suite's guard (helpers.ts), which fails on any console or
  // page error.
});

test('a page transition the browser skips logs no error: its promises are handled on both pages', async ({
  page,
}) => {
  await page.goto('/c/matelas');
  // What Chromium hands both pages when it skips a cross-document transition (back or forward,
  // a page left before it is revealed, a hidden tab): a transition whose promises reject with
  // an AbortError. Unhandled, each is an uncaught error in the console.
  await page.evaluate(async () => {
    const skipped = () => Promise.reject(new DOMException('Transition was skipped', 'AbortError'));
    for (const type of ['pageswap', 'pagereveal']) {
      const event = new Event(type);
      Object.defineProperty(event, 'viewTransition', {
        value: { ready: skipped(), finished: skipped(), updateCallbackDone: skipped() },
      });
      dispatchEvent(event);
    }
    // Unhandled rejections are reported once the task is over: two frames later they were.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
  // An unhandled one would be a page error: the suite's guard (helpers.ts) fails the test on it.
});
