/**
 * The spec's remaining rules seen in the browser: the top bar's links and the
 * newsletter panel reachable on a 390 px phone (spec §2 Top bar), not for resellers (§6);
 * navigation groups without a URL kept as folds in the menu sidebar; the footer's three social
 * links out of the box (§1).
 */
import { type Page } from '@playwright/test';
import { t } from '../../src/lib/i18n/index.ts';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { clickInHeader, expect, test, waitForHydration } from './helpers.ts';

const PHONE = { width: 390, height: 844 };

const menuPanel = (page: Page) => page.locator('#menu-panel');

async function openMenuFromBottomBar(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: t('nav.bottomBar') })
    .getByRole('button', { name: t('nav.menu') })
    .click();
  await expect(menuPanel(page)).toBeVisible();
}

test('on a 390 px phone the top bar’s links and the newsletter panel are reached from the menu', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto('/');
  // The top bar shows no links at this width...
  await expect(page.getByRole('banner').getByRole('link', { name: t('topbar.help') })).toBeHidden();
  // ...the bottom bar's Menu holds them.
  await openMenuFromBottomBar(page);
  const panel = menuPanel(page);
  for (const name of [t('topbar.affiliate'), t('nav.sleepContent'), t('topbar.help')]) {
    await expect(panel.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(panel.getByRole('link', { name: t('topbar.help'), exact: true })).toHaveAttribute(
    'href',
    /^(\/aide|https?:)/,
  );

  // The newsletter entry opens the panel, whose form is usable at this width.
  await panel.getByRole('button', { name: t('newsletter.open') }).click();
  const newsletter = page.getByRole('dialog', { name: t('newsletter.title') });
  await expect(newsletter).toBeVisible();
  const email = newsletter.getByRole('textbox');
  await expect(email).toBeVisible();
  const box = await newsletter.boundingBox();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
  await email.fill('telephone@example.fr');
  await expect(email).toHaveValue('telephone@example.fr');
  await page.keyboard.press('Escape');
  await expect(newsletter).toBeHidden();

  // The help link leads to the help page.
  if (!(await panel.isVisible())) await openMenuFromBottomBar(page);
  await panel.getByRole('link', { name: t('topbar.help'), exact: true }).click();
  await expect(page).toHaveURL(/\/aide$/);
});

test('a reseller’s menu on a phone has no top-bar link and no newsletter entry (spec §6)', async ({
  page,
}) => {
  const reseller = CUSTOMERS.resellerWithSellers;
  await page.setViewportSize(PHONE);
  await page.goto('/espace-revendeur/connexion');
  await waitForHydration(page);
  await page.getByLabel(t('login.email')).fill(reseller.email);
  await page.getByLabel(t('login.password')).fill(reseller.password);
  await page.getByRole('button', { name: t('login.submit') }).click();
  // The login checks the password (a slow hash): give it time.
  await expect(page).toHaveURL(/\/espace-revendeur$/, { timeout: 30_000 });
  await openMenuFromBottomBar(page);
  const panel = menuPanel(page);
  await expect(panel.getByRole('button', { name: t('newsletter.open') })).toHaveCount(0);
  await expect(panel.getByRole('link', { name: t('topbar.help'), exact: true })).toHaveCount(0);
  await expect(panel.getByRole('link', { name: t('topbar.affiliate') })).toHaveCount(0);
  await expect(page.locator('#newsletter-panel, [popover][id*="newsletter"]')).toHaveCount(0);
});

test('the menu sidebar keeps the Sidebar Navigation’s groups without a URL as folds', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await clickInHeader(page.getByRole('banner').getByRole('button', { name: t('header.menu') }));
  const panel = menuPanel(page);
  await expect(panel).toBeVisible();
  // "Nos produits" (a group) holds "Matelas" (a group without a URL) whose children are links.
  await panel.locator('summary', { hasText: 'Nos produits' }).click();
  const matelas = panel.locator('details[data-menu-fold]', {
    has: page.locator('summary', { hasText: /^\s*Matelas\s*$/ }),
  });
  await expect(matelas).toHaveCount(1);
  await matelas.locator('summary').click();
  const links = matelas.getByRole('link');
  expect(await links.count()).toBeGreaterThan(1);
  await expect(links.first()).toBeVisible();
  await expect(links.first()).toHaveAttribute('href', /^\/c\//);
  await links.first().click();
  await expect(page).toHaveURL(/\/c\//);
});

test('the footer shows the three social links out of the box', async ({ page }) => {
  await page.goto('/');
  const social = page.getByRole('contentinfo').locator('section[aria-labelledby="footer-social"]');
  await expect(social.getByRole('heading', { name: t('footer.social') })).toBeVisible();
  const hrefs = await social
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  expect(hrefs).toEqual([
    expect.stringMatching(/^https:\/\/www\.linkedin\.com\//),
    expect.stringMatching(/^https:\/\/www\.instagram\.com\//),
    expect.stringMatching(/^https:\/\/www\.facebook\.com\//),
  ]);
  for (const link of await social.getByRole('link').all()) {
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
  }
});
