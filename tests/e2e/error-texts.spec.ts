/**
 * No raw keys: with an upstream service down, each form's error is a French
 * sentence, never a message key: login and registration, the account's profile, the footer's
 * newsletter form. The shop API's call is answered here with what the API answers when the
 * service behind it is down (`{ message: 'error.upstreamUnavailable', statusCode: 503 }`,
 * proven against the sandbox's fault injection by tests/integration/error-texts.test.ts):
 * faulting the shared sandbox itself would fail the other browser tests running beside these.
 * The cart's own path is tests/e2e/cart-faults.spec.ts.
 */
import { type Locator, type Page } from '@playwright/test';
import { t } from '../../src/lib/i18n/index.ts';
import {
  anyOf,
  apiStatus,
  expect,
  submitRegistration,
  test,
  uniqueEmail,
  waitForHydration,
} from './helpers.ts';

/** The API's reply for a call whose upstream service is down, on this page only. */
async function serviceDown(page: Page, path: string): Promise<void> {
  await page.route(`**${path}`, (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'error.upstreamUnavailable', statusCode: 503 }),
    }),
  );
}

/** The form's alert is the French "service down" sentence, with no raw key. */
async function expectFrenchDown(alert: Locator): Promise<void> {
  await expect(alert).toHaveText(t('error.upstreamUnavailable'));
  expect(await alert.innerText()).not.toMatch(/error\.|upstream/i);
}

// The customer and newsletter services fail on purpose (503): each form logs its fault.
test.use({
  allowedConsoleErrors: anyOf(
    apiStatus('loginCustomer|createCustomer|updateCustomer|subscribe', 503),
    /^console\.error on \S+: (?:customer (?:login|register|update)|newsletter subscribe) failed: ApiCallError: error\.upstreamUnavailable/,
  ),
});

test('login with the customer service down: a French sentence', async ({ page }) => {
  await page.goto('/connexion');
  await waitForHydration(page);
  await serviceDown(page, '/api/bigcommerce/loginCustomer');
  await page.getByLabel(t('login.email')).fill(uniqueEmail('down'));
  await page.getByLabel(t('login.password')).fill('Literie2026');
  await page.getByRole('button', { name: t('login.submit') }).click();
  await expectFrenchDown(page.getByRole('main').getByRole('alert'));
});

test('registration with the customer service down: a French sentence', async ({ page }) => {
  await page.goto('/inscription');
  await waitForHydration(page);
  await serviceDown(page, '/api/bigcommerce/createCustomer');
  await submitRegistration(page, uniqueEmail('down'));
  await expectFrenchDown(page.getByRole('main').getByRole('alert'));
});

test('the account profile with the customer service down: a French sentence', async ({ page }) => {
  await page.goto('/inscription');
  await waitForHydration(page);
  await submitRegistration(page, uniqueEmail('profile'));
  await expect(page).toHaveURL(/\/mon-compte/, { timeout: 15_000 });
  await page.goto('/mon-compte/mes-informations');
  await waitForHydration(page);
  await serviceDown(page, '/api/bigcommerce/updateCustomer');
  await page.getByRole('button', { name: t('account.save') }).click();
  await expectFrenchDown(page.getByRole('main').getByRole('alert'));
});

test('the newsletter with Brevo down: a French sentence', async ({ page }) => {
  await page.goto('/');
  const form = page.locator('#newsletter').getByRole('form', { name: t('newsletter.title') });
  await form.scrollIntoViewIfNeeded();
  await serviceDown(page, '/api/brevo/subscribe');
  await form.getByLabel(t('newsletter.email')).fill(uniqueEmail('brevo-down'));
  await form.getByLabel(t('newsletter.consent')).check();
  await form.getByRole('button', { name: t('newsletter.submit') }).click();
  await expectFrenchDown(form.locator('[data-form-error]'));
});
