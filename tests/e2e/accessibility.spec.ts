import AxeBuilder from '@axe-core/playwright';
import { productPath } from '../../src/lib/commerce/slug.ts';
import type { Product } from '../../src/lib/commerce/types.ts';
import { CUSTOMERS, PRODUCTS } from '@literie/sandbox/fixtures';
import { t } from '../../src/lib/i18n/index.ts';
import {
  anyOf,
  api,
  clickInHeader,
  documentStatus,
  expect,
  test,
  waitForHydration,
  waitForIsland,
} from './helpers.ts';

// One axe pass per page kind: no violation of the WCAG 2.1 A/AA rules.
// 'product' stands for the product page, whose path comes from the API.
const pages: [kind: string, path: string][] = [
  ['home', '/'],
  ['category', '/c/matelas'],
  ['category query view', '/c/matelas?sort=2&page=2'],
  ['product', 'product'],
  ['brand', '/marque/dormelune'],
  ['category index', '/categorie'],
  ['search results', '/resultats-de-recherche/matelas'],
  ['error 404', '/page-inconnue'],
  ['design showcase', '/Design'],
  ['cart (empty)', '/panier'],
  ['checkout (empty cart)', '/paiement'],
  ['login', '/connexion'],
  ['registration', '/inscription'],
  // The content pages.
  ['sleep-content list', '/les-yeux-fermes'],
  ['sleep-content list by tag', '/les-yeux-fermes?tag=formatHistoire'],
  ['sleep-content podcast', '/les-yeux-fermes/la-respiration-4-7-8-mode-d-emploi'],
  ['legal page', '/mentions-legales'],
  ['help page', '/aide'],
];

// The error page's kind is opened on purpose: its document answers 404.
test.use({ allowedConsoleErrors: anyOf(documentStatus('/page-inconnue', 404)) });

for (const [kind, path] of pages) {
  test(`axe: ${kind}`, async ({ page, request }) => {
    const url =
      path === 'product'
        ? productPath(await api<Product>(request, 'getProductById', [PRODUCTS.trackingVariant]))
        : path;
    await page.goto(url);
    await waitForHydration(page);
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const violations = results.violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
    expect(violations).toEqual([]);
  });
}

async function axeViolations(page: import('@playwright/test').Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

test('axe: the cart sidebar, the cart page and the checkout with items', async ({ page }) => {
  await page.goto(productPath({ id: PRODUCTS.trackingNone, name: 'x' }));
  const add = page.getByRole('button', { name: /^Ajouter au panier/ }).first();
  await waitForIsland(add);
  await add.click();
  await expect(page.getByRole('button', { name: t('cart.added') })).toBeVisible();
  await clickInHeader(page.getByRole('banner').getByRole('link', { name: /Panier$/ }));
  await expect(page.getByRole('dialog', { name: t('cart.title') })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.goto('/panier');
  await waitForHydration(page);
  await expect(page.locator('[data-cart-line]')).toHaveCount(1);
  expect(await axeViolations(page)).toEqual([]);
  await page.goto('/paiement');
  expect(await axeViolations(page)).toEqual([]);
});

test('axe: the login modal and the account pages', async ({ page }) => {
  // A login (the sandbox's deliberately slow password hash, beside other workers' logins) and
  // six axe passes: over 30 s on a busy 2-core machine.
  test.setTimeout(90_000);
  await page.goto('/');
  await waitForHydration(page);
  await clickInHeader(page.getByRole('banner').getByRole('link', { name: t('header.login') }));
  await expect(page.getByRole('dialog', { name: t('account.title') })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.goto('/connexion');
  await waitForHydration(page);
  await page.getByLabel(t('login.email')).fill(CUSTOMERS.marie.email);
  await page.getByLabel(t('login.password')).fill(CUSTOMERS.marie.password);
  await page.getByRole('button', { name: t('login.submit') }).click();
  await expect(page).toHaveURL(/mes-informations$/);
  for (const path of [
    '/mon-compte/mes-informations',
    '/mon-compte/mes-adresses',
    '/mon-compte/mes-commandes',
    `/mon-compte/mes-commandes/${CUSTOMERS.marie.orders.shipped}`,
  ]) {
    await page.goto(path);
    await waitForHydration(page);
    expect(await axeViolations(page), path).toEqual([]);
  }
});
