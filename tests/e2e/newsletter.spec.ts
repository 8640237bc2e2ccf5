import AxeBuilder from '@axe-core/playwright';
import { t } from '../../src/lib/i18n/index.ts';
import { anyOf, apiStatus, expect, test } from './helpers.ts';

// spec §2 footer newsletter form and panel, §4 success text, §5 rules, §8 error texts.

// The same address signed up twice on purpose: Brevo's 400 (spec §8, shown as information).
test.use({ allowedConsoleErrors: anyOf(apiStatus('subscribe', 400)) });

const uniqueEmail = (tag: string) =>
  `e2e-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.fr`;

for (const width of [390, 1280]) {
  test(`footer (${width} px): subscribe succeeds, the same address again shows the spec §8 text above the button, as information`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: width < 800 ? 844 : 800 });
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
    // The spec §8 text, as news (a polite status), not as a fault (no alert, not red).
    const info = form.getByRole('status').filter({ hasText: t('newsletter.error.exists') });
    await expect(info).toHaveText('Le contact existe déjà dans la liste.');
    const error = form.locator('[data-form-error]');
    await expect(error).toBeEmpty();
    await expect(form.getByRole('alert')).toHaveCount(0);
    await expect(form.locator('[data-form-status]')).toBeEmpty();
    const colours = await info.evaluate((node) => {
      const shown = getComputedStyle(node);
      const danger = node.parentElement?.querySelector('[data-form-error]');
      return {
        text: shown.color,
        box: shown.backgroundColor,
        danger: danger ? getComputedStyle(danger).color : '',
      };
    });
    expect(colours.text).not.toBe(colours.danger);
    expect(colours.box).not.toMatch(/rgba?\(0, 0, 0, 0\)/);
    // "above the button" (spec §8).
    const infoBox = await info.boundingBox();
    const buttonBox = await form
      .getByRole('button', { name: t('newsletter.submit') })
      .boundingBox();
    expect(infoBox && buttonBox && infoBox.y < buttonBox.y).toBe(true);
    await form.scrollIntoViewIfNeeded();
    await form.screenshot({ path: `test-results/visual/newsletter-exists-${width}.png` });
  });
}

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
