/**
 * issue 30, no raw keys: with an upstream service down (the sandbox's fault injection answers
 * 503), each form's error is a French sentence, never a message key: login and registration
 * (customer service), the account's profile (customer service), the footer's newsletter form
 * (Brevo). The cart's own path is tests/e2e/cart-faults.spec.ts.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { t } from '../../src/lib/i18n/index.ts';
import { SANDBOX_TOKEN } from '../../scripts/sandbox/fixtures.ts';
import { TEST_ENV } from '../../scripts/lib/test-env.ts';
import { submitRegistration, uniqueEmail, waitForHydration } from './helpers.ts';

const FAULTS = `http://127.0.0.1:${TEST_ENV.SANDBOX_PORT}/__sandbox/faults`;
const HEADERS = { 'X-Auth-Token': SANDBOX_TOKEN, 'Content-Type': 'application/json' };
const CUSTOMERS = '/stores/sandbox/v3/customers';
/** What a form may say when the service is down: the French texts, not their keys. */
const DOWN = [t('error.upstreamUnavailable'), t('error.upstreamTimeout'), t('error.generic')];

async function fault(page: Page, match: string): Promise<void> {
  const res = await page.request.post(FAULTS, { headers: HEADERS, data: { status: 503, match } });
  expect(res.status()).toBe(201);
}

test.afterEach(async ({ page }) => {
  const res = await page.request.delete(FAULTS, { headers: HEADERS });
  expect(res.ok()).toBe(true);
});

/** The form's alert is one of the French "service down" sentences, with no raw key. */
async function expectFrenchDown(alert: Locator): Promise<void> {
  await expect(alert).toBeVisible();
  const text = (await alert.innerText()).trim();
  expect(DOWN).toContain(text);
  expect(text).not.toMatch(/error\.|upstream/i);
}

test('login with the customer service down: a French sentence', async ({ page }) => {
  await page.goto('/connexion');
  await waitForHydration(page);
  await fault(page, CUSTOMERS);
  await page.getByLabel(t('login.email')).fill(uniqueEmail('down'));
  await page.getByLabel(t('login.password')).fill('Literie2026');
  await page.getByRole('button', { name: t('login.submit') }).click();
  const alert = page.getByRole('main').getByRole('alert');
  await expectFrenchDown(alert);
  expect(await alert.innerText()).toBe(t('error.upstreamUnavailable'));
});

test('registration with the customer service down: a French sentence', async ({ page }) => {
  await page.goto('/inscription');
  await waitForHydration(page);
  await fault(page, CUSTOMERS);
  await submitRegistration(page, uniqueEmail('down'));
  await expectFrenchDown(page.getByRole('main').getByRole('alert'));
});

test('the account profile with the customer service down: a French sentence', async ({ page }) => {
  await page.goto('/inscription');
  await waitForHydration(page);
  await submitRegistration(page, uniqueEmail('profile'));
  await expect(page).toHaveURL(/\/mon-compte/);
  await page.goto('/mon-compte/mes-informations');
  await waitForHydration(page);
  await fault(page, CUSTOMERS);
  await page.getByRole('button', { name: t('account.save') }).click();
  await expectFrenchDown(page.getByRole('main').getByRole('alert'));
});

test('the newsletter with Brevo down: a French sentence', async ({ page }) => {
  await page.goto('/');
  const form = page.locator('#newsletter').getByRole('form', { name: t('newsletter.title') });
  await form.scrollIntoViewIfNeeded();
  await fault(page, '/brevo');
  await form.getByLabel(t('newsletter.email')).fill(uniqueEmail('brevo-down'));
  await form.getByLabel(t('newsletter.consent')).check();
  await form.getByRole('button', { name: t('newsletter.submit') }).click();
  await expectFrenchDown(form.locator('[data-form-error]'));
});
