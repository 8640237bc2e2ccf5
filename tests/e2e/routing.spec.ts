import { productPath } from '../../src/lib/commerce/slug.ts';
import type { Product } from '../../src/lib/commerce/types.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { P_RULE_REDIRECT, PRODUCTS } from '@literie/sandbox/fixtures';
import { anyOf, api, documentStatus, expect, test } from './helpers.ts';

test.use({
  allowedConsoleErrors: anyOf(
    documentStatus('/cette-page-n-existe-pas', 404),
    // A cart link with a wrong token answers 404 on purpose (a page says why).
    documentStatus('/c/matelas', 404),
  ),
});

test('an unknown page answers 404 with the error page and its buttons', async ({ page }) => {
  const res = await page.goto('/cette-page-n-existe-pas');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: t('Page not found') })).toBeVisible();
  await expect(
    page.getByText(t("We are sorry that we can't find the page, please go back or try again")),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: t('Return home') })).toHaveAttribute('href', '/');
  await page.goto('/c/matelas');
  await page.goto('/cette-page-n-existe-pas');
  await page.getByRole('button', { name: t('Back'), exact: true }).click();
  await expect(page).toHaveURL(/\/c\/matelas$/);
});

test('a product page with an outdated slug answers 301 to its page', async ({ request }) => {
  const target = await api<Product>(request, 'getProductById', [PRODUCTS.redirectTarget]);
  const res = await request.get(`/p/${target.id}/ancien-nom`, { maxRedirects: 0 });
  expect(res.status()).toBe(301);
  expect(new URL(res.headers().location ?? '', 'http://x').pathname).toBe(productPath(target));
});

test('an unknown product id answers 404', async ({ request }) => {
  const res = await request.get('/p/999999/inconnu', { maxRedirects: 0 });
  expect(res.status()).toBe(404);
});

for (const [name, from, to] of [
  ['a category', '/c/matelas/', '/c/matelas'],
  ['a query is kept', '/c/matelas/?sort=2', '/c/matelas?sort=2'],
  ['an unknown path', '/nulle-part/', '/nulle-part'],
] as const) {
  test(`a trailing slash on ${name} answers 301 without it`, async ({ request }) => {
    const res = await request.get(from, { maxRedirects: 0 });
    expect(res.status()).toBe(301);
    const location = new URL(res.headers().location ?? '', 'http://x');
    expect(location.pathname + location.search).toBe(to);
  });
}

test('a storefront redirect sends its from_path to the target product', async ({ request }) => {
  const target = await api<Product>(request, 'getProductById', [PRODUCTS.redirectTarget]);
  const res = await request.get(P_RULE_REDIRECT.fromPath, { maxRedirects: 0 });
  expect(res.status()).toBe(301);
  expect(new URL(res.headers().location ?? '', 'http://x').pathname).toBe(productPath(target));
});

test('the /p/{number}/... rule drops the id and redirects to /p/{entity_id}{path}', async ({
  request,
}) => {
  const res = await request.get(`/p/${PRODUCTS.retired}${P_RULE_REDIRECT.fromPath}`, {
    maxRedirects: 0,
  });
  expect(res.status()).toBe(301);
  expect(new URL(res.headers().location ?? '', 'http://x').pathname).toBe(
    `/p/${P_RULE_REDIRECT.toEntityId}${P_RULE_REDIRECT.fromPath}`,
  );
});

test('the API middleware answers { data }, 400 on bad arguments and 500 when unknown', async ({
  request,
}) => {
  const ok = await request.post('/api/bigcommerce/getProductById', {
    data: [PRODUCTS.trackingVariant],
  });
  expect(ok.status()).toBe(200);
  expect(((await ok.json()) as { data: { id: number } }).data.id).toBe(PRODUCTS.trackingVariant);

  const bad = await request.post('/api/bigcommerce/getProductById', { data: ['abc'] });
  expect(bad.status()).toBe(400);
  const badBody = (await bad.json()) as { statusCode: number; message: unknown };
  expect(badBody.statusCode).toBe(400);
  expect(badBody.message).toMatch(/id/);

  const unknown = await request.post('/api/inconnu/getProducts', { data: [] });
  expect(unknown.status()).toBe(500);
  expect(await unknown.json()).toMatchObject({ statusCode: 500 });
});

test('static pages are precompressed, assets immutable, HTML revalidated', async ({
  page,
  request,
}) => {
  const home = await request.get('/', { headers: { 'accept-encoding': 'br' } });
  expect(home.headers()['content-encoding']).toBe('br');
  expect(home.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
  await page.goto('/');
  const css = await page.locator('link[rel="stylesheet"]').first().getAttribute('href');
  if (css) {
    const asset = await request.get(css);
    expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  }
});

test('sitemap and robots are served', async ({ request }) => {
  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain('Sitemap:');
  const index = await request.get('/sitemap-index.xml');
  expect(index.status()).toBe(200);
  const sitemap = await request.get('/sitemap-0.xml');
  const xml = await sitemap.text();
  expect(xml).toContain('/c/matelas</loc>');
  expect(xml).toMatch(/\/p\/\d+\/[a-z0-9-]+<\/loc>/);
  expect(xml).not.toContain('/Design');
});

test('/404 and /500 answer with their status; status lines carry the right reason', async ({
  request,
}) => {
  const notFound = await request.get('/404');
  expect(notFound.status()).toBe(404);
  expect(notFound.statusText()).toBe('Not Found');
  expect(await notFound.text()).toContain(t('Page not found'));
  const error = await request.get('/500');
  expect(error.status()).toBe(500);
  expect(error.statusText()).toBe('Internal Server Error');
  expect(await error.text()).toContain(t('An error occured'));
  const unknown = await request.get('/nulle-part-ici');
  expect(unknown.statusText()).toBe('Not Found');
});

test('a cart link on a pre-rendered page with a wrong token says it is not valid', async ({
  page,
}) => {
  const res = await page.goto('/c/matelas?id=00000000-0000-4000-8000-000000000000&token=faux');
  expect(res?.status()).toBe(404);
  await expect(
    page.getByRole('heading', { level: 1, name: t('reseller.link.invalidTitle') }),
  ).toBeVisible();
  expect((await page.context().cookies()).some((c) => c.name === 'cart-id')).toBe(false);
});

test('locale, currency and country cookies: a year, path /, SameSite lax (spec §4, §9)', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await page.waitForFunction(() => document.cookie.includes('country='));
  const cookies = await context.cookies();
  const byName = Object.fromEntries(cookies.map((c) => [c.name, c]));
  for (const [name, value] of [
    ['locale', 'fr'],
    ['currency', 'EUR'],
    ['country', 'FR'],
  ] as const) {
    const cookie = byName[name];
    expect(cookie?.value, name).toBe(value);
    expect(cookie?.path).toBe('/');
    expect(cookie?.sameSite).toBe('Lax');
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);
  }
  // A stored unsupported locale is replaced by the shop's own.
  await context.addCookies([{ name: 'locale', value: 'xx', url: page.url() }]);
  await page.reload();
  await page.waitForFunction(() => /(?:^|; )locale=fr(?:;|$)/.test(document.cookie));
});
