/**
 * The reseller area (spec §1, §2, §4, §6; the test build has FEATURE_RESELLER_AREA on):
 * the guard, the reseller-login layout, the reseller layout without what resellers never see,
 * a reseller filling a cart and sending it to a client, the client's link opening that cart, and
 * axe on the area's pages.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { t } from '../../src/lib/i18n/index.ts';
import { CUSTOMERS, SANDBOX_BREVO_KEY } from '@literie/sandbox/fixtures';
import { TEST_ENV } from '../../scripts/lib/test-env.ts';
import { anyOf, documentStatus, expect, test, waitForHydration, waitForIsland } from './helpers.ts';

test.use({
  // A cart link with a wrong token answers 404 on purpose (a page says why): the browser logs it.
  allowedConsoleErrors: anyOf(documentStatus('/panier', 404)),
});

const reseller = CUSTOMERS.resellerWithSellers;
const sandbox = `http://127.0.0.1:${TEST_ENV.SANDBOX_PORT}`;

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await waitForHydration(page);
  await page.getByLabel(t('login.email')).fill(email);
  await page.getByLabel(t('login.password')).fill(password);
  await page.getByRole('button', { name: t('login.submit') }).click();
}

/** The link of the last e-mail the sandbox's Brevo sent to `email`. */
async function mailedLink(email: string): Promise<URL> {
  const headers = { 'api-key': SANDBOX_BREVO_KEY };
  const listed = (await (
    await fetch(`${sandbox}/brevo/v3/smtp/emails?email=${encodeURIComponent(email)}&sort=desc`, {
      headers,
    })
  ).json()) as { transactionalEmails?: { uuid: string }[] };
  const uuid = listed.transactionalEmails?.[0]?.uuid ?? '';
  const mail = (await (
    await fetch(`${sandbox}/brevo/v3/smtp/emails/${uuid}`, { headers })
  ).json()) as { body: string };
  const href = /href="([^"]+)"/.exec(mail.body)?.[1]?.replaceAll('&amp;', '&') ?? '';
  return new URL(href);
}

test('a visitor is sent to the reseller login, whose header has the logo only; axe', async ({
  page,
}) => {
  await page.goto('/espace-revendeur/panier');
  await expect(page).toHaveURL(/\/espace-revendeur\/connexion$/);
  const header = page.getByRole('banner');
  await expect(header.getByRole('link')).toHaveCount(1); // the logo
  await expect(header.getByRole('searchbox')).toHaveCount(0);
  await expect(page.getByRole('button', { name: t('login.toRegister') })).toHaveCount(0);
  await waitForHydration(page);
  expect(await axeViolations(page)).toEqual([]);
});

test('a customer who is no reseller is sent to the main shop', async ({ page }) => {
  await page.goto('/connexion');
  await logIn(page, CUSTOMERS.formerReseller.email, CUSTOMERS.formerReseller.password);
  await expect(page).toHaveURL(/\/mon-compte\/mes-informations$/);
  await page.goto('/espace-revendeur');
  await expect(page).toHaveURL(/:\d+\/$/);
});

test('a reseller logs in, fills a cart, sends it to a client; the client opens it', async ({
  page,
  browser,
}) => {
  await page.goto('/espace-revendeur/connexion');
  await logIn(page, reseller.email, reseller.password);
  await expect(page).toHaveURL(/\/espace-revendeur$/);
  await expect(
    page.getByRole('heading', { level: 1, name: new RegExp(reseller.shopName) }),
  ).toBeVisible();

  // The reseller layout: "Connecté" and the shop name; none of what resellers never see.
  const account = page.getByRole('banner').getByRole('link', { name: /Connecté/ });
  await expect(account).toContainText(reseller.shopName);
  await expect(page.getByText(t('newsletter.title'))).toHaveCount(0);
  await expect(page.locator('#footer-social, #footer-payment')).toHaveCount(0);
  await expect(page.getByText(t('topbar.affiliate'))).toHaveCount(0);
  await expect(page.getByText('Livraison rapide')).toHaveCount(0);
  await expect(page.getByRole('link', { name: t('header.sleepContent') })).toHaveCount(0);
  await expect(page.locator('[data-reviews-widget]')).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);

  // Search, cards with the reseller flag, add one to the cart.
  await page.getByRole('searchbox', { name: t('reseller.home.search') }).fill('matelas');
  await page
    .getByRole('main')
    .getByRole('button', { name: t('reseller.home.searchSubmit') })
    .click();
  const cards = page.locator('[data-card][data-reseller]');
  await expect(cards.first()).toBeVisible();
  const add = page.getByRole('button', { name: /^Ajouter au panier : / }).first();
  await waitForIsland(add);
  await add.click();
  await expect(page.getByRole('button', { name: t('cart.added') })).toBeVisible();

  // The reseller cart: a seller is required, then the cart goes to the client.
  await page.goto('/espace-revendeur/panier');
  await waitForHydration(page);
  await expect(page.locator('[data-cart-line]')).toHaveCount(1);
  const sku = await page.locator('[data-cart-line]').getAttribute('data-cart-line');
  expect(await axeViolations(page)).toEqual([]);
  const client = `client.${Date.now()}@example.fr`;
  await page.getByLabel(t('reseller.clientEmail')).fill(client);
  await page.getByRole('button', { name: t('reseller.sendCart') }).click();
  await expect(page.getByText(t('You need to select a seller too'))).toBeVisible();
  await page.getByLabel(t('reseller.seller')).selectOption(reseller.sellers[1]);
  await page.getByRole('button', { name: t('reseller.sendCart') }).click();
  await expect(page.getByRole('status').filter({ hasText: client })).toBeVisible();
  await expect(page.getByText(t('reseller.emptyCart'))).toBeVisible();

  // The client's link: any page of the shop, here the home page (pre-rendered).
  const link = await mailedLink(client);
  expect(link.searchParams.get('id')).not.toBeNull();
  const home = new URL(`/${link.search}`, TEST_ENV.SANDBOX_SITE_URL);
  const clientContext = await browser.newContext();
  try {
    const clientPage = await clientContext.newPage();
    await clientPage.goto(home.href);
    await expect(clientPage).toHaveURL(/\/panier$/);
    await waitForHydration(clientPage);
    await expect(clientPage.locator('[data-cart-line]')).toHaveAttribute(
      'data-cart-line',
      sku ?? '',
    );
    // A wrong token opens nothing and says so: 404, the page names who to ask.
    const other = await browser.newContext();
    const stranger = await other.newPage();
    const wrong = new URL(link.href);
    wrong.searchParams.set('token', 'faux-jeton');
    const refused = await stranger.goto(wrong.href);
    expect(refused?.status()).toBe(404);
    await expect(
      stranger.getByRole('heading', { level: 1, name: t('reseller.link.invalidTitle') }),
    ).toBeVisible();
    expect((await other.cookies()).some((c) => c.name === 'cart-id')).toBe(false);
    await other.close();
  } finally {
    await clientContext.close();
  }
});
