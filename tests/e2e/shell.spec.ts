import { type Page } from '@playwright/test';
import { t } from '../../src/lib/i18n/index.ts';
import { CHUNK_RELOAD_KEY } from '../../src/browser/shell/chunk-reload.ts';
import { anyOf, expect, layoutShiftSince, test, watchLayoutShifts } from './helpers.ts';

// The shop shell's behaviours: sticky header (spec §2, §9 300 ms), navigation progress bar
// (spec §4, §9 200 / 5000 / 500 ms), chunk-load reload guard (spec §4, §9 60000 ms), page
// transitions (spec §9 out-in, named page) and back to top on navigation (spec §2).

const LISTING = '/c/matelas';
const header = (page: Page) => page.locator('[data-sticky-header]');
const bar = (page: Page) => page.locator('.nav-progress');

/**
 * Runs `scroll` and resolves once the page has handled it: the scroll is over (`scrollend`,
 * after a wheel's smooth scrolling) and the frame after it has run, the one where the header
 * decides to hide or stay.
 */
async function scrolled(page: Page, scroll: () => Promise<void>): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { scrollEnded?: Promise<void> }).scrollEnded = new Promise((resolve) => {
      window.addEventListener(
        'scrollend',
        () =>
          requestAnimationFrame(() => {
            resolve();
          }),
        { once: true },
      );
    });
  });
  await scroll();
  await page.evaluate(() => (window as unknown as { scrollEnded?: Promise<void> }).scrollEnded);
}

/** The header's bottom edge in the viewport, once its transition has settled. */
async function headerBottom(page: Page): Promise<number> {
  return header(page).evaluate(async (el) => {
    await Promise.all(el.getAnimations().map((a) => a.finished));
    return el.getBoundingClientRect().bottom;
  });
}

test('the header hides on scroll down, comes back on scroll up, without moving the page', async ({
  page,
}) => {
  await page.goto(LISTING);
  const main = page.locator('#contenu');
  const mainTop = await main.evaluate((el) => (el as HTMLElement).offsetTop);
  const height = await header(page).evaluate((el) => (el as HTMLElement).offsetHeight);
  // The page keeps the header's height for fragments and focus (scroll-padding-top).
  await expect
    .poll(() =>
      page.evaluate(() => document.documentElement.style.getPropertyValue('--header-height')),
    )
    .toBe(`${height}px`);

  await watchLayoutShifts(page);
  await page.mouse.move(600, 500);
  await page.mouse.wheel(0, 1500);
  await expect(header(page)).toHaveAttribute('data-header-hidden', '');
  expect(await headerBottom(page)).toBeLessThanOrEqual(0);
  expect(await header(page).evaluate((el) => getComputedStyle(el).transitionDuration)).toContain(
    '0.3s',
  );

  await page.mouse.wheel(0, -300);
  await expect(header(page)).not.toHaveAttribute('data-header-hidden');
  expect(await headerBottom(page)).toBeCloseTo(height, 0);

  // Sticky and transformed: the content never moved, and no layout shift was reported while
  // the header went and came back.
  expect(await main.evaluate((el) => (el as HTMLElement).offsetTop)).toBe(mainTop);
  expect(await layoutShiftSince(page)).toBe(0);

  // Back at the top it stays whatever the direction.
  await page.mouse.wheel(0, -5000);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await scrolled(page, () => page.mouse.wheel(0, Math.max(1, height - 20)));
  await expect(header(page)).not.toHaveAttribute('data-header-hidden');
});

test('the header stays while the search panel is open', async ({ page }) => {
  await page.goto(LISTING);
  await page.getByRole('searchbox', { name: t('search.label') }).focus();
  await expect(page.getByRole('combobox', { name: t('search.label') })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await scrolled(page, () =>
    page.evaluate(() => {
      window.scrollBy(0, 1500);
    }),
  );
  await expect(header(page)).not.toHaveAttribute('data-header-hidden');
  expect(await headerBottom(page)).toBeGreaterThan(0);
});

test('under reduced motion the header and the pages move without animation', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.addInitScript(() => {
    window.addEventListener('pagereveal', (event) => {
      (window as { revealedWithTransition?: boolean }).revealedWithTransition =
        event.viewTransition !== null;
    });
  });
  await page.goto(LISTING);
  const durations = await header(page).evaluate((el) =>
    getComputedStyle(el)
      .transitionDuration.split(',')
      .map((d) => parseFloat(d)),
  );
  for (const seconds of durations) expect(seconds).toBeLessThan(0.001);

  await page.locator('#contenu a[href^="/p/"]').first().click();
  await expect(page).toHaveURL(/\/p\//);
  await page.waitForFunction(
    () => (window as { revealedWithTransition?: boolean }).revealedWithTransition !== undefined,
  );
  expect(
    await page.evaluate(
      () => (window as { revealedWithTransition?: boolean }).revealedWithTransition,
    ),
  ).toBe(false);
});

test('a page load of the shop fades the page content out, then the new one in (view transition)', async ({
  page,
}) => {
  await page.addInitScript(() => {
    window.addEventListener('pagereveal', (event) => {
      const w = window as { pageAnimations?: Promise<string[]> };
      const transition = event.viewTransition;
      if (transition === null) {
        w.pageAnimations = Promise.resolve([]);
        return;
      }
      w.pageAnimations = transition.ready.then(() =>
        document.getAnimations().map((animation) => {
          const effect = animation.effect as KeyframeEffect;
          const timing = effect.getTiming();
          return `${effect.pseudoElement ?? ''} ${String(timing.delay)}+${String(timing.duration)}`;
        }),
      );
    });
  });
  await page.goto(LISTING);
  await page.mouse.wheel(0, 1200);
  await page.locator('#contenu a[href^="/p/"]').nth(6).click();
  await expect(page).toHaveURL(/\/p\//);
  // The URL changes when the new document commits; pagereveal fires at its first rendering,
  // which can come later on a loaded machine: wait for it rather than read too early.
  await page.waitForFunction(
    () => (window as { pageAnimations?: Promise<string[]> }).pageAnimations !== undefined,
  );
  const animations = await page.evaluate(
    () => (window as { pageAnimations?: Promise<string[]> }).pageAnimations ?? [],
  );
  // Out-in: the old content fades out in 150 ms, the new one fades in after it.
  expect(animations).toContain('::view-transition-old(page) 0+150');
  expect(animations).toContain('::view-transition-new(page) 150+150');
  // spec §2: back to top on navigation.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test('back to top on navigation, the browser restores the position on back', async ({ page }) => {
  await page.goto(LISTING);
  await page.mouse.wheel(0, 1400);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  const scrolled = await page.evaluate(() => window.scrollY);
  await page.locator('#contenu a[href^="/p/"]').nth(8).click();
  await expect(page).toHaveURL(/\/p\//);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${LISTING}$`));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(scrolled);
});

test('the progress bar shows while a slow page loads, and is gone on the new page', async ({
  page,
}) => {
  await page.goto('/');
  const link = page.locator('#contenu a[href^="/c/"], [data-menu-item] a[href^="/c/"]').first();
  const href = (await link.getAttribute('href')) ?? '';
  let release: () => void = () => undefined;
  await page.route(
    (url) => url.pathname === href,
    async (route) => {
      await new Promise<void>((resolve) => {
        release = resolve;
        setTimeout(resolve, 5000);
      });
      await route.continue();
    },
  );
  // Playwright's locators wait for the pending navigation: the page reports the bar itself.
  const shown = page.evaluate(
    () =>
      new Promise<{ after: number; opacity: string; width: number; hidden: string | null }>(
        (resolve) => {
          let clickedAt = 0;
          window.addEventListener('click', () => (clickedAt = performance.now()), {
            capture: true,
          });
          const check = () => {
            const el = document.querySelector<HTMLElement>('.nav-progress');
            if (el?.dataset.state === 'running' && getComputedStyle(el).opacity === '1') {
              resolve({
                after: performance.now() - clickedAt,
                opacity: getComputedStyle(el).opacity,
                width: el.getBoundingClientRect().width,
                hidden: el.getAttribute('aria-hidden'),
              });
            } else requestAnimationFrame(check);
          };
          check();
        },
      ),
  );
  await link.click({ noWaitAfter: true });
  const bar0 = await shown;
  expect(bar0.after).toBeGreaterThanOrEqual(200);
  expect(bar0.width).toBeGreaterThan(0);
  expect(bar0.hidden).toBe('true');
  release();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(bar(page)).toHaveCount(0);
});

test('a quick page load shows no bar; a fragment link starts none', async ({ page }) => {
  await page.goto(LISTING);
  await page.evaluate(() => {
    const a = document.createElement('a');
    a.href = '#contenu';
    a.textContent = 'fragment';
    a.id = 'fragment-link';
    document.body.prepend(a);
  });
  // A started load creates the bar at once (hidden for its first 200 ms): once the fragment
  // navigation is done, there is none.
  await page.evaluate(() => {
    (window as unknown as { hashChanged?: Promise<void> }).hashChanged = new Promise((resolve) => {
      window.addEventListener(
        'hashchange',
        () => {
          resolve();
        },
        { once: true },
      );
    });
  });
  await page.locator('#fragment-link').click();
  await page.evaluate(() => (window as unknown as { hashChanged?: Promise<void> }).hashChanged);
  expect(page.url()).toMatch(/#contenu$/);
  await expect(bar(page)).toHaveCount(0);
});

test('a stopped navigation marks the bar failed (Navigation API), then hides it', async ({
  page,
}) => {
  await page.goto('/');
  const link = page.locator('[data-menu-item] a[href^="/c/"]').first();
  const href = (await link.getAttribute('href')) ?? '';
  await page.route(
    (url) => url.pathname === href,
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue().catch(() => undefined);
    },
  );
  // The shopper presses Stop while the page is pending.
  await page.evaluate(() => {
    setTimeout(() => {
      window.stop();
    }, 700);
  });
  await link.click({ noWaitAfter: true });
  await expect(bar(page)).toHaveAttribute('data-state', 'failed');
  expect(await bar(page).evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
    'rgb(180, 35, 24)',
  );
  await expect(bar(page)).toHaveAttribute('data-state', 'hidden');
  expect(page.url()).not.toContain(href);
});

test.describe('a chunk gone', () => {
  // The search panel's chunk is aborted on purpose.
  test.use({
    allowedConsoleErrors: anyOf(
      /^console\.error on \S+: Failed to load resource: net::ERR_FAILED \(\S+\/_astro\/mount\.[\w-]+\.js:0\)$/,
    ),
  });

  test('a chunk that fails to load reloads the page once, not again within 60 s', async ({
    page,
  }) => {
    let loads = 0;
    page.on('load', () => {
      loads += 1;
    });
    // The search panel's chunk is gone (a new deployment replaced it).
    await page.route(/\/_astro\/mount\.[\w-]+\.js$/, (route) => route.abort());
    await page.goto(LISTING);
    expect(loads).toBe(1);
    await page.getByRole('searchbox', { name: t('search.label') }).focus();
    await expect.poll(() => loads).toBe(2);
    expect(await page.evaluate((key) => sessionStorage.getItem(key), CHUNK_RELOAD_KEY)).toMatch(
      /^\d+$/,
    );

    // The chunk fails again right after the reload: no second reload. The page's failure event
    // (after the guard's own listener has decided) is waited for; the guard would have stored
    // a new reload time before reloading.
    const reloadedAt = await page.evaluate((key) => sessionStorage.getItem(key), CHUNK_RELOAD_KEY);
    await page.evaluate(() => {
      (window as unknown as { chunkFailed?: Promise<void> }).chunkFailed = new Promise(
        (resolve) => {
          const failed = () => {
            resolve();
          };
          window.addEventListener('vite:preloadError', failed, { once: true });
          document.addEventListener('astro:hydration-error', failed, { once: true });
        },
      );
    });
    await page.getByRole('searchbox', { name: t('search.label') }).focus();
    await page.evaluate(() => (window as unknown as { chunkFailed?: Promise<void> }).chunkFailed);
    expect(await page.evaluate((key) => sessionStorage.getItem(key), CHUNK_RELOAD_KEY)).toBe(
      reloadedAt,
    );
    expect(loads).toBe(2);
  });
});
