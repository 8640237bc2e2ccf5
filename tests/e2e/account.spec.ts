/**
 * Browser flows of the customer: registration with each validation message, the login
 * modal (wrong password, spec §8 text, modal stays open), login merge of a guest cart into the
 * saved cart (spec §4), the login-required guard and its way back (spec §2), logout.
 */
import { type Page } from '@playwright/test';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { CUSTOMERS, PRODUCTS, SANDBOX_BREVO_KEY } from '@literie/sandbox/fixtures';
import { TEST_ENV } from '../../scripts/lib/test-env.ts';
import {
  anyOf,
  apiStatus,
  clickInHeader,
  expect,
  test,
  waitForHydration,
  waitForIsland,
} from './helpers.ts';

/**
 * Logs out from a typed /deconnexion (`Sec-Fetch-Site: none`): the shopper asked for it, so
 * it logs out at once (another site's link only gets a confirmation).
 */
async function logOut(page: Page): Promise<void> {
  await page.goto('/deconnexion');
  await expect(page.getByRole('status')).toHaveText(t('logout.done'));
  await expect(page.getByText(t('logout.confirm'))).toHaveCount(0);
}

function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.fr`;
}

const accountButton = (page: Page) =>
  page.getByRole('banner').getByRole('link', { name: /Me connecter|Connecté/ });

async function addFromProductPage(page: Page, productId: number): Promise<void> {
  await page.goto(productPath({ id: productId, name: 'x' }));
  const add = page.getByRole('button', { name: /^Ajouter au panier/ }).first();
  await waitForIsland(add);
  await add.click();
  await expect(page.getByRole('button', { name: t('cart.added') })).toBeVisible();
}

async function cartLineSkus(page: Page): Promise<string[]> {
  await page.goto('/panier');
  await waitForHydration(page);
  await expect(page.locator('[data-cart-lines]')).toBeVisible();
  return page
    .locator('[data-cart-line]')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-cart-line') ?? ''));
}

// A wrong password (401) and a used reset link (400) are sent on purpose.
test.use({
  allowedConsoleErrors: anyOf(
    apiStatus('loginCustomer', 401),
    apiStatus('sendResetPasswordEmail', 400),
  ),
});

test('registration shows each validation message, then succeeds', async ({ page }) => {
  await page.goto('/inscription');
  await waitForHydration(page);
  const submit = page.getByRole('button', { name: t('register.submit') });
  await submit.click();
  const form = page.getByRole('main');
  await expect(form.getByText(t('validation.required'))).toHaveCount(4);
  await expect(form.getByText(t('validation.createAccount'))).toBeVisible();

  await page.getByLabel(t('register.firstName'), { exact: true }).fill('A');
  await page.getByLabel(t('register.lastName'), { exact: true }).fill('Durand');
  await page.getByLabel(t('login.email')).fill('pas-une-adresse');
  await page.getByLabel(t('login.password')).fill('abcdefg');
  await submit.click();
  await expect(form.getByText(t('validation.nameMin'))).toBeVisible();
  await expect(form.getByText(t('Invalid email'))).toBeVisible();
  await expect(
    form.getByText(t('Password must have at least 7 characters including one letter and a number')),
  ).toBeVisible();

  await page.getByLabel(t('register.firstName'), { exact: true }).fill('Alix');
  await page.getByLabel(t('login.email')).fill(uniqueEmail('inscription'));
  await page.getByLabel(t('login.password')).fill('abcdef1');
  await page.getByLabel(t('I want to create an account')).check();
  await submit.click();
  await expect(page).toHaveURL(/\/mon-compte\/mes-informations$/);
  await expect(page.getByLabel(t('register.firstName'), { exact: true })).toHaveValue('Alix');
  await expect(accountButton(page)).toContainText('Alix');
});

test('a wrong password shows the French text of Invalid credentials and the modal stays open', async ({
  page,
}) => {
  await page.goto('/');
  await waitForHydration(page);
  await clickInHeader(accountButton(page));
  const modal = page.getByRole('dialog', { name: t('account.title') });
  await expect(modal).toBeVisible();
  // spec §4: the register screen by default, switchable to login.
  await expect(modal.getByRole('heading', { name: t('register.title') })).toBeVisible();
  await modal.getByRole('button', { name: t('register.toLogin') }).click();
  await modal.getByLabel(t('login.email')).fill(CUSTOMERS.marie.email);
  await modal.getByLabel(t('login.password')).fill('mauvais1mot');
  await modal.getByRole('button', { name: t('login.submit') }).click();
  await expect(modal.getByRole('alert')).toHaveText(t('Invalid credentials'));
  await expect(modal).toBeVisible();
  expect(t('Invalid credentials')).not.toBe('Invalid credentials');
});

test('login merge puts the guest items into the saved cart', async ({ page, browser }) => {
  // A customer with a saved cart holding one product (logged in once, in another browser).
  const email = uniqueEmail('fusion');
  const other = await browser.newContext();
  const first = await other.newPage();
  await first.goto('/inscription');
  await waitForHydration(first);
  await first.getByLabel(t('register.firstName'), { exact: true }).fill('Noa');
  await first.getByLabel(t('register.lastName'), { exact: true }).fill('Petit');
  await first.getByLabel(t('login.email')).fill(email);
  await first.getByLabel(t('login.password')).fill('Fusion2026');
  await first.getByLabel(t('I want to create an account')).check();
  await first.getByRole('button', { name: t('register.submit') }).click();
  await expect(first).toHaveURL(/mes-informations$/);
  await addFromProductPage(first, PRODUCTS.trackingNone);
  const saved = await cartLineSkus(first);
  expect(saved).toHaveLength(1);
  await other.close();

  // The same shopper, as a guest in this browser, adds another product, then logs in.
  await addFromProductPage(page, PRODUCTS.trackingProduct);
  const guest = await cartLineSkus(page);
  expect(guest).toHaveLength(1);
  await page.goto('/connexion');
  await waitForHydration(page);
  await page.getByLabel(t('login.email')).fill(email);
  await page.getByLabel(t('login.password')).fill('Fusion2026');
  await page.getByRole('button', { name: t('login.submit') }).click();
  await expect(page).toHaveURL(/mes-informations$/);
  const merged = await cartLineSkus(page);
  expect(merged.sort()).toEqual([...saved, ...guest].sort());
});

test('the guard sends a visitor to /connexion and back to the page asked for; logout', async ({
  page,
}) => {
  await page.goto('/mon-compte/mes-commandes');
  await expect(page).toHaveURL(/\/connexion$/);
  await waitForHydration(page);
  await page.getByLabel(t('login.email')).fill(CUSTOMERS.marie.email);
  await page.getByLabel(t('login.password')).fill(CUSTOMERS.marie.password);
  await page.getByRole('button', { name: t('login.submit') }).click();
  await expect(page).toHaveURL(/\/mon-compte\/mes-commandes$/);
  await expect(page.locator('[data-order]').first()).toBeVisible();
  // Each status in its colour (spec §4).
  const colours = await page
    .locator('[data-order] [data-status-color]')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-status-color')));
  expect(colours).toContain('success');
  expect(colours).toContain('danger');
  expect(colours).toContain('highlight');

  // The account menu's link logs out at once (a navigation from the shop's own page).
  await page.getByRole('link', { name: t('account.logout') }).click();
  await expect(page.getByRole('status')).toHaveText(t('logout.done'));
  // The cart-authenticated guard keeps the cart for after login.
  await waitForHydration(page);
  await expect(accountButton(page)).toHaveText(new RegExp(t('header.login')));
  await page.goto('/panier?authenticated=true');
  await expect(page).toHaveURL(/\/connexion$/);
  await page.goto('/mon-compte');
  await expect(page).toHaveURL(/\/connexion$/);
  // /login.php is the old logout address.
  const res = await page.request.get('/login.php', { maxRedirects: 0 });
  expect(res.status()).toBe(302);
  expect(res.headers().location).toBe('/deconnexion');
});

test('a forgotten password: the e-mailed link sets a new one and logs the shopper in', async ({
  page,
  request,
}) => {
  // A fresh account, so the test owns its password.
  const email = uniqueEmail('oubli');
  await page.goto('/inscription');
  await waitForHydration(page);
  await page.getByLabel(t('register.firstName'), { exact: true }).fill('Lou');
  await page.getByLabel(t('register.lastName'), { exact: true }).fill('Bernard');
  await page.getByLabel(t('login.email')).fill(email);
  await page.getByLabel(t('login.password')).fill('Ancien2026');
  await page.getByLabel(t('I want to create an account')).check();
  await page.getByRole('button', { name: t('register.submit') }).click();
  await expect(page).toHaveURL(/mes-informations$/);
  await logOut(page);

  // "Mot de passe oublié ?" in the login modal.
  await page.goto('/');
  await waitForHydration(page);
  await clickInHeader(accountButton(page));
  const modal = page.getByRole('dialog', { name: t('account.title') });
  await modal.getByRole('button', { name: t('register.toLogin') }).click();
  await modal.getByRole('button', { name: t('login.forgotPassword') }).click();
  await modal.getByLabel(t('login.email')).fill(email);
  await modal.getByRole('button', { name: t('forgot.submit') }).click();
  await expect(modal.getByRole('status')).toHaveText(t('forgot.sent'));

  // The mail, read from the sandbox's Brevo outbox.
  const sandbox = `http://127.0.0.1:${TEST_ENV.SANDBOX_PORT}/brevo/v3`;
  const headers = { 'api-key': SANDBOX_BREVO_KEY };
  let uuid = '';
  await expect
    .poll(async () => {
      const list = (await (
        await request.get(`${sandbox}/smtp/emails?email=${encodeURIComponent(email)}`, { headers })
      ).json()) as { transactionalEmails?: { uuid: string }[] };
      uuid = list.transactionalEmails?.[0]?.uuid ?? '';
      return uuid;
    })
    .not.toBe('');
  const mail = (await (
    await request.get(`${sandbox}/smtp/emails/${uuid}`, { headers })
  ).json()) as {
    body: string;
  };
  const link = /href="([^"]*\/mot-de-passe\?resetToken=[^"]+)"/.exec(mail.body)?.[1];
  expect(link).toBeDefined();
  const target = new URL((link ?? '').replaceAll('&amp;', '&'));

  await page.goto(target.pathname + target.search);
  await waitForHydration(page);
  await page.getByLabel(t('password.new')).fill('Nouveau2026');
  await page.getByRole('button', { name: t('password.submit') }).click();
  await expect(page).toHaveURL(/mes-informations$/);
  await expect(page.getByLabel(t('login.email'))).toHaveValue(email);

  // The link is used: a second use is refused with the spec's kind of message.
  await logOut(page);
  await page.goto(target.pathname + target.search);
  await waitForHydration(page);
  await page.getByLabel(t('password.new')).fill('Encore2026');
  await page.getByRole('button', { name: t('password.submit') }).click();
  await expect(page.getByRole('alert')).toHaveText(t('Invalid or expired reset link'));
});
