/**
 * The content side in the browser: the header's sleep-content button, the list and
 * its tag filters, a card's detail, `podcast_play` on the first play, the scroll rule of the
 * list pages, a legal page reached from the footer, the mega menu's promotional push, the
 * 404 of unknown content paths, and the sandbox's hostile rich text running nothing.
 */
import { type Page } from '@playwright/test';
import { t } from '../../src/lib/i18n/index.ts';
import { clickInHeader, expect, test, waitForHydration } from './helpers.ts';

const SLEEP = '/les-yeux-fermes';

/** Every dialog, popup and `/xss/` request seen, and the CSP violations of the document. */
async function watch(page: Page) {
  const executions: string[] = [];
  page.on('dialog', (dialog) => {
    executions.push(`dialog ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('popup', (popup) => executions.push(`popup ${popup.url()}`));
  page.on('request', (request) => {
    if (request.url().includes('/xss/')) executions.push(`request ${request.url()}`);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[]; __xss?: unknown };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      w.__csp.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return {
    executions,
    violations: () => page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []),
    sideEffects: () =>
      page.evaluate(() => {
        const w = window as unknown as Record<string, unknown>;
        return ['__xss', 'xss', 'pwned'].filter((name) => name in w);
      }),
  };
}

test('the header button leads to the sleep-content list, whose cards follow spec §2', async ({
  page,
}) => {
  await page.goto('/');
  await clickInHeader(
    page
      .getByRole('banner')
      .getByRole('link', { name: t('header.sleepContent'), exact: true })
      .first(),
  );
  await expect(page).toHaveURL(SLEEP);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('sleep.title'));
  const cards = page.locator('[data-sleep-list] article');
  await expect(cards).toHaveCount(12);
  // Episode numbers padded to two digits, durations in minutes, play icons on podcasts/videos.
  for (const episode of await page.locator('[data-episode]').allTextContents()) {
    expect(episode).toMatch(/^Épisode \d{2,}$/);
  }
  for (const duration of await page.locator('[data-duration]').allTextContents()) {
    expect(duration.trim()).toMatch(/^\d+ min$/);
  }
  await expect(page.locator('[data-play-icon]').first()).toBeAttached();
  // The pagination's second page exists, pre-rendered.
  const second = await page.request.get(`${SLEEP}/page/2`);
  expect(second.status()).toBe(200);
});

test('a tag filter shows only that tag, then a card opens its detail', async ({ page }) => {
  await page.goto(SLEEP);
  const chip = page.locator('[data-tag="formatPodcast"]');
  await chip.click();
  await expect(page).toHaveURL(`${SLEEP}?tag=formatPodcast`);
  await expect(page.locator('[data-tag="formatPodcast"]')).toHaveAttribute('aria-current', 'page');
  const cards = page.locator('[data-sleep-list] article');
  expect(await cards.count()).toBeGreaterThan(0);
  // Every podcast card has its play icon.
  await expect(page.locator('[data-sleep-list] article [data-play-icon]')).toHaveCount(
    await cards.count(),
  );
  const title = (await cards.first().getByRole('link').textContent())?.trim() ?? '';
  await cards.first().getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`${SLEEP}/[a-z0-9-]+$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  // An unknown tag and malformed pages are 404 (route validation, spec §8).
  expect((await page.request.get(`${SLEEP}?tag=inconnu`)).status()).toBe(404);
  expect((await page.request.get(`${SLEEP}/page/abc`)).status()).toBe(404);
  expect((await page.request.get(`${SLEEP}/page/0`)).status()).toBe(404);
  expect((await page.request.get(`${SLEEP}/page/999`)).status()).toBe(404);
  expect((await page.request.get(`${SLEEP}/cet-episode-n-existe-pas`)).status()).toBe(404);
  expect((await page.request.get('/cette-page-n-existe-pas')).status()).toBe(404);
});

test('playing a podcast pushes podcast_play once (spec §9)', async ({ page }) => {
  await page.goto(`${SLEEP}?tag=formatPodcast`);
  // The first podcast with its audio (the hostile episode of npm test's sandbox has none).
  await page.locator('[data-sleep-list] article a:not([href$="/episode-piege"])').first().click();
  await waitForHydration(page);
  const player = page.locator('audio[data-sleep-player]');
  await expect(player).toBeVisible();
  const plays = () =>
    page.evaluate(
      () =>
        ((window as unknown as { dataLayer?: { event?: string }[] }).dataLayer ?? []).filter(
          (event) => event.event === 'podcast_play',
        ).length,
    );
  expect(await plays()).toBe(0);
  await player.evaluate(async (audio: HTMLAudioElement) => {
    audio.muted = true;
    await audio.play();
    audio.pause();
    await audio.play();
  });
  await expect.poll(plays).toBe(1);
  const event = await page.evaluate(() =>
    (window as unknown as { dataLayer: { event?: string }[] }).dataLayer.find(
      (e) => e.event === 'podcast_play',
    ),
  );
  expect(event).toMatchObject({ event: 'podcast_play', podcast_id: expect.any(String) });
});

test('arriving on the list opens it scrolled to 900 (desktop) or 500 (mobile); reload, back and forward keep their position', async ({
  page,
}) => {
  const scrollY = () => page.evaluate(() => window.scrollY);
  // spec §2 Scrolling: on the sleep-content page the scroll goes to 500 (under 768) or 900.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${SLEEP}/page/2`);
  await expect.poll(scrollY).toBe(900);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${SLEEP}/page/2`);
  await expect.poll(scrollY).toBe(500);
  // The list's first page, typed in.
  await page.goto(SLEEP);
  await expect.poll(scrollY).toBe(500);

  // Reached from elsewhere by a link (the header's, on the home page), desktop-wide.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await clickInHeader(
    page
      .getByRole('banner')
      .getByRole('link', { name: t('header.sleepContent') })
      .first(),
  );
  await expect(page).toHaveURL(new RegExp(`${SLEEP}$`));
  await expect.poll(scrollY).toBe(900);

  // The shopper scrolls further, leaves for an entry and comes back: the browser's position.
  await page.mouse.wheel(0, 600);
  await expect.poll(scrollY).toBeGreaterThan(1200);
  const further = await scrollY();
  // A click from script: Playwright's own click would first scroll the link into view.
  await page
    .locator(`#liste a[href^="${SLEEP}/"]:not([href*="/page/"])`)
    .first()
    .evaluate((link) => {
      (link as HTMLAnchorElement).click();
    });
  await expect(page).not.toHaveURL(new RegExp(`${SLEEP}$`));
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${SLEEP}$`));
  await expect.poll(scrollY).toBe(further);
  // A reload keeps the browser's restored position (its scroll anchoring may move it a little
  // as pictures load), never the jump to 900.
  await page.reload();
  await expect.poll(scrollY).toBeGreaterThan(1200);
});

test('every legal page of the footer exists; one opens from the footer', async ({ page }) => {
  await page.goto('/');
  const legal = page.getByRole('contentinfo').getByRole('navigation', { name: t('footer.legal') });
  // The legal pages; "Gérer les cookies" (the cookie choice, consent.spec.ts) comes after them.
  const hrefs = await legal
    .locator('a:not([data-consent-open])')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
  await expect(legal.getByRole('link', { name: t('consent.manage') })).toHaveAttribute(
    'href',
    '/cookies',
  );
  expect(hrefs).toEqual([
    '/protection-des-donnees-personnelles',
    '/mentions-legales',
    '/cgv',
    '/cookies',
    '/conditions-des-offres',
    '/cgu-photographies',
  ]);
  for (const href of hrefs) {
    expect((await page.request.get(href ?? '')).status(), href ?? '').toBe(200);
  }
  await legal.getByRole('link', { name: t('legal.notice') }).click();
  await expect(page).toHaveURL('/mentions-legales');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('[data-content-page] .rich-text p').first()).toBeVisible();
});

test('the mega menu shows the promotional push of its root category', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  const item = page.locator('[data-menu-item]').filter({ has: page.locator('[data-menu-push]') });
  await expect(item.first()).toBeAttached();
  const push = item.first().locator('[data-menu-push]');
  await expect(push).toBeHidden();
  await item.first().hover();
  await expect(push).toBeVisible();
  await expect(push.locator('p').first()).not.toBeEmpty();
});

test('the hostile rich text of the content service runs nothing', async ({ page }) => {
  const w = await watch(page);
  for (const path of ['/page-piegee', `${SLEEP}/episode-piege`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    // The entry's own rich text (the banner and menu pushes are the catalogue's hostile test).
    const root = page.locator('[data-content-page] .rich-text, [data-sleep-entry] .rich-text');
    await expect(root.first()).toBeVisible();
    for (const element of await root.locator('*').all()) {
      for (const type of ['mouseover', 'focus']) {
        await element.dispatchEvent(type).catch(() => undefined);
      }
    }
    for (const link of await root.locator('a:not([href^="http"])').all()) {
      await link.click({ timeout: 2_000, noWaitAfter: true }).catch(() => undefined);
      if (!page.url().endsWith(path)) await page.goBack();
    }
    const hrefs = await root
      .locator('a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    for (const href of hrefs) expect(href, path).toMatch(/^(https?:|mailto:|tel:|\/(?!\/))/i);
    expect(
      await root.locator('script, iframe, svg, object, embed, [onerror], [onload]').count(),
    ).toBe(0);
    expect(await w.sideEffects(), path).toEqual([]);
    expect(await w.violations(), path).toEqual([]);
  }
  expect(w.executions).toEqual([]);
});
