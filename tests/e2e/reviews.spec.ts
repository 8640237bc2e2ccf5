import AxeBuilder from '@axe-core/playwright';
import { productPath } from '../../src/lib/commerce/slug.ts';
import type { Product } from '../../src/lib/commerce/types.ts';
import { PRODUCTS } from '@literie/sandbox/fixtures';
import { t } from '../../src/lib/i18n/index.ts';
import { api, expect, layoutShiftSince, test, watchLayoutShifts } from './helpers.ts';

// spec §2 product page reviews: list, ratings bar chart, review form (§5 rules); pending.

test('the reviews load near the viewport: chart with star ticks, list, and a review is sent pending', async ({
  page,
  request,
}) => {
  const product = await api<Product>(request, 'getProductById', [PRODUCTS.trackingVariant]);
  const reviewsCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/getProductReviewCollection')) reviewsCalls.push(r.url());
  });
  await page.goto(productPath(product));
  // Not loaded up front.
  await page.waitForLoadState('load');
  expect(reviewsCalls).toEqual([]);

  const section = page.locator('#avis');
  // The section keeps the island's room from the start: mounting it and its reviews arriving
  // move nothing on screen (no layout shift).
  await watchLayoutShifts(page);
  await section.scrollIntoViewIfNeeded();
  const form = section.getByRole('form', { name: t('reviews.write') });
  await expect(form).toBeVisible();
  await expect.poll(() => reviewsCalls.length).toBe(1);
  if (product.reviewsCount > 0) {
    await expect(section.locator('[data-review]').first()).toBeVisible();
    await expect(section.locator('[data-rating-chart=""]')).toHaveCount(1);
    expect(await layoutShiftSince(page)).toBe(0);
    await expect(section.locator('[data-rating-tick]')).toHaveText([
      '1 ★',
      '2 ★',
      '3 ★',
      '4 ★',
      '5 ★',
    ]);
    // Screen readers get the figures as a table.
    await expect(section.getByRole('table', { name: t('reviews.chartCaption') })).toHaveCount(1);
  }

  // spec §5: rules checked in French before anything is sent.
  await form.getByRole('button', { name: t('reviews.submit') }).click();
  await expect(form.getByText(t('validation.rating'))).toBeVisible();
  await form.getByLabel(t('reviews.titleField')).fill('Ok');
  await form.getByRole('button', { name: t('reviews.submit') }).click();
  await expect(form.getByText(t('validation.reviewMin')).first()).toBeVisible();

  const axe = await new AxeBuilder({ page })
    .include('#avis')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);

  await form.getByLabel(t('reviews.stars', { count: 4 })).check();
  await form.getByLabel(t('reviews.titleField')).fill('Très bon accueil');
  await form
    .getByLabel(t('reviews.text'), { exact: true })
    .fill('Livré vite, matelas ferme comme annoncé.');
  await form.getByLabel(t('reviews.name')).fill('Camille R.');
  await form.getByLabel(t('reviews.email')).fill('camille@example.fr');
  await form.getByRole('button', { name: t('reviews.submit') }).click();
  await expect(form.locator('[data-review-status]')).toHaveText(t('reviews.pending'));
  // Pending: not in the list.
  await expect(section.getByText('Très bon accueil')).toHaveCount(0);
});

test('site rating in the reassurance banner (new tab) and the reviews carousel in the footer', async ({
  page,
}) => {
  await page.goto('/');
  const reassurance = page.getByRole('region', { name: t('reassurance.label') });
  const rating = reassurance.getByRole('link', { name: new RegExp(t('common.newTab')) });
  await expect(rating).toHaveAttribute('target', '_blank');
  await expect(rating).toHaveAttribute('href', /^https?:\/\//);
  // The guaranteed-reviews site rating of the sandbox's provider, with its stars.
  await expect(rating).toContainText(/\d/);

  const frame = page.locator('iframe[data-reviews-widget]');
  await frame.scrollIntoViewIfNeeded();
  await expect(frame).toHaveAttribute('src', /[?&]id=\d+/);
  // Allowed by the page's CSP (frame-src): the widget page renders inside.
  await expect(
    page.frameLocator('iframe[data-reviews-widget]').locator('li').first(),
  ).toBeVisible();
});
