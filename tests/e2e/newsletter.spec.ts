import AxeBuilder from '@axe-core/playwright';
import { t } from '../../src/lib/i18n/index.ts';
import { expect, test } from './helpers.ts';

// spec §2 footer newsletter form and panel, §4 success text, §5 rules, §8 error texts.

const uniqueEmail = (tag: string) =>
  `e2e-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.fr`;

test('footer: subscribe succeeds, the same address again shows the spec §8 text above the button', async ({
  page,
}) => {
  await page.goto('/');
  const form = page.locator('#newsletter').getByRole('form', { name: t('newsletter.title') });
  await form.scrollIntoViewIfNeeded();
  const email = uniqueEmail('footer');

  // spec §5: both fields are checked, in French, before anything is sent.
  await form.getByRole('button', { name: t('newsletter.submit') }).click();
  await expect(form.getByText(t('validation.required'))).toBeVisible();
  await expect(form.getByText(t('validation.newsletterConsent'))).toBeVisible();
  await form.getByLabel(t('newsletter.email')).fill('pas-un-email');
  await form.getByRole('button', { name: t('newsletter.submit') }).click();
  await expect(form.getByText(t('Invalid email'))).toBeVisible();

  await form.getByLabel(t('newsletter.email')).fill(email);
  await form.getByLabel(t('newsletter.consent')).check();
  await form.getByRole('button', { name: t('newsletter.submit') }).click();
  await expect(form.locator('[data-form-status]')).toHaveText('Adresse enregistrée avec succès');
  await expect(form.locator('[data-form-error]')).toBeEmpty();

  await form.getByLabel(t('newsletter.email')).fill(email.toUpperCase());
  await form.getByLabel(t('newsletter.consent')).check();
  await form.getByRole('button', { name: t('newsletter.submit') }).click();
  const error = form.locator('[data-form-error]');
  await expect(error).toHaveText('Le contact existe déjà dans la liste.');
  await expect(form.locator('[data-form-status]')).toBeEmpty();
  // "above the button" (spec §8).
  const errorBox = await error.boundingBox();
  const buttonBox = await form.getByRole('button', { name: t('newsletter.submit') }).boundingBox();
  expect(errorBox && buttonBox && errorBox.y < buttonBox.y).toBe(true);
});

test('panel: opens from the top bar, subscribes, passes axe, closes with Escape', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await page.getByRole('button', { name: t('newsletter.open') }).click();
  const panel = page.getByRole('dialog', { name: t('newsletter.title') });
  await expect(panel).toBeVisible();
  const results = await new AxeBuilder({ page })
    .include('#newsletter-panel')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);
  await panel.getByLabel(t('newsletter.email')).fill(uniqueEmail('panel'));
  await panel.getByLabel(t('newsletter.consent')).check();
  await panel.getByRole('button', { name: t('newsletter.submit') }).click();
  await expect(panel.locator('[data-form-status]')).toHaveText('Adresse enregistrée avec succès');
  // The footer form keeps its own state.
  await expect(page.locator('#newsletter').locator('[data-form-status]')).toBeEmpty();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
});

test('hostile input is refused with a clear text and subscribes nobody', async ({ page }) => {
  await page.goto('/');
  const form = page.locator('#newsletter').getByRole('form', { name: t('newsletter.title') });
  await form.scrollIntoViewIfNeeded();
  for (const value of [
    '<script>alert(1)</script>@x.fr',
    'a@b.fr\nBcc: c@d.fr',
    `${'x'.repeat(250)}@b.fr`,
  ]) {
    await form.getByLabel(t('newsletter.email')).fill(value);
    await form.getByLabel(t('newsletter.consent')).check();
    await form.getByRole('button', { name: t('newsletter.submit') }).click();
    await expect(form.getByText(t('Invalid email'))).toBeVisible();
    await expect(form.locator('[data-form-status]')).toBeEmpty();
  }
});
