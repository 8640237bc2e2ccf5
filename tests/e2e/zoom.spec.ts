/**
 * The product gallery's zoom: "Agrandir l'image" opens a full-screen viewer
 * (PhotoSwipe, loaded on the first tap) over every picture of the gallery, at the widest
 * encoded size, whole; next and previous change the picture, Escape or a swipe down closes it
 * and the focus is back on the zoom link. Without JavaScript the link opens that picture. At
 * 390 and 1280 px, screenshots in test-results/visual/, no console or page error.
 */
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { productPath } from '../../src/lib/commerce/slug.ts';
import type { Product } from '../../src/lib/commerce/types.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { PRODUCTS } from '@literie/sandbox/fixtures';
import { api, expect, test } from './helpers.ts';
import { VISUAL_DIR } from './visual/check.ts';

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

async function openProduct(page: Page, product: Product) {
  await page.goto(productPath(product));
  const links = page.locator('[data-gallery] a[data-zoom]');
  const total = await links.count();
  expect(total, 'the product has several pictures').toBeGreaterThan(1);
  const trigger = links.first();
  await expect(trigger).toBeVisible();
  const viewer = page.getByRole('dialog', { name: t('product.zoomDialog') });
  const counter = viewer.locator('.pswp__counter');
  const current = viewer.locator('.pswp__item[aria-hidden="false"] img.pswp__img');
  return { links, total, trigger, viewer, counter, current };
}

for (const size of WIDTHS) {
  test(`the zoom shows every picture full screen, larger than the gallery, at ${size.width} px`, async ({
    page,
    request,
  }) => {
    const product = await api<Product>(request, 'getProductById', [PRODUCTS.trackingVariant]);
    await page.setViewportSize(size);
    const { links, total, trigger, viewer, counter, current } = await openProduct(page, product);
    const galleryPicture = await trigger.locator('img').evaluate((img: HTMLImageElement) => {
      const box = img.getBoundingClientRect();
      // object-fit: contain in its box: the picture is drawn at the smaller of the two sides.
      const scale = Math.min(box.width / img.naturalWidth, box.height / img.naturalHeight);
      return { width: img.naturalWidth * scale, natural: img.naturalWidth };
    });
    const encoded = Number(await trigger.getAttribute('data-zoom-width'));
    expect(encoded).toBe(1024);

    await trigger.click();
    await expect(viewer).toBeVisible();
    await expect(counter).toHaveText(t('product.showImage', { index: 1, total }));
    // The picture is loaded whole, at the widest encoded size, and drawn larger than in the
    // gallery (on a phone: the screen's width; on a desktop: the screen's height).
    await expect
      .poll(() => current.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThanOrEqual(encoded);
    const shown = await current.evaluate((img: HTMLImageElement) => ({
      width: img.getBoundingClientRect().width,
      height: img.getBoundingClientRect().height,
      ratio: img.naturalWidth / img.naturalHeight,
      alt: img.alt,
    }));
    expect(shown.width).toBeGreaterThan(galleryPicture.width);
    // Uncropped: drawn at the picture's own ratio, inside the screen.
    expect(Math.abs(shown.width / shown.height - shown.ratio)).toBeLessThan(0.02);
    expect(shown.width).toBeLessThanOrEqual(size.width);
    expect(shown.height).toBeLessThanOrEqual(size.height);
    expect(shown.alt).toBe(await trigger.locator('img').getAttribute('alt'));
    // Shot once the fade in is over (PhotoSwipe ignores keys and gestures until then).
    await expect(viewer).toHaveAttribute('data-opened');
    await page.screenshot({ path: `${VISUAL_DIR}/zoom-${size.width}.png` });

    // Next and previous: the buttons, then the keyboard.
    const first = await current.getAttribute('src');
    await viewer.getByRole('button', { name: t('product.zoomNext') }).click();
    await expect(counter).toHaveText(t('product.showImage', { index: 2, total }));
    await expect(current).not.toHaveAttribute('src', first ?? '');
    expect(await current.getAttribute('src')).toBe(await links.nth(1).getAttribute('href'));
    await viewer.getByRole('button', { name: t('product.zoomPrevious') }).click();
    await expect(counter).toHaveText(t('product.showImage', { index: 1, total }));
    await page.keyboard.press('ArrowRight');
    await expect(counter).toHaveText(t('product.showImage', { index: 2, total }));
    await page.keyboard.press('ArrowLeft');
    await expect(counter).toHaveText(t('product.showImage', { index: 1, total }));

    // Escape closes it; the focus is back on the zoom link.
    await page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
    await expect(trigger).toBeFocused();
  });
}

test('a swipe down closes the zoom', async ({ page, request }) => {
  const product = await api<Product>(request, 'getProductById', [PRODUCTS.trackingVariant]);
  await page.setViewportSize({ width: 390, height: 844 });
  const { trigger, viewer } = await openProduct(page, product);
  await trigger.click();
  await expect(viewer).toBeVisible();
  // Opened (PhotoSwipe's fade in over): a drag before that is ignored.
  await expect(viewer).toHaveAttribute('data-opened');
  // PhotoSwipe reads pointer events and moves the picture once a frame: a drag down from the
  // middle of the screen, one step a frame.
  const nextFrame = () =>
    page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          requestAnimationFrame(() => {
            resolve();
          });
        }),
    );
  await page.mouse.move(195, 420);
  await page.mouse.down();
  for (let step = 1; step <= 10; step++) {
    await page.mouse.move(195, 420 + step * 35);
    await nextFrame();
  }
  await page.mouse.up();
  await expect(viewer).toHaveCount(0);
  await expect(trigger).toBeFocused();
});

test('on close the gallery shows the picture last viewed, its link focused', async ({
  page,
  request,
}) => {
  const product = await api<Product>(request, 'getProductById', [PRODUCTS.trackingVariant]);
  await page.setViewportSize({ width: 1280, height: 800 });
  const { links, total, trigger, viewer, counter } = await openProduct(page, product);
  await trigger.click();
  await expect(viewer).toHaveAttribute('data-opened');
  await viewer.getByRole('button', { name: t('product.zoomNext') }).click();
  await expect(counter).toHaveText(t('product.showImage', { index: 2, total }));
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await expect(links.nth(1)).toBeVisible();
  await expect(links.first()).toBeHidden();
  await expect(links.nth(1)).toBeFocused();
});

test('without JavaScript the zoom link opens the widest encoded picture, at the size it states', async ({
  browser,
  request,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const product = await api<Product>(request, 'getProductById', [PRODUCTS.trackingVariant]);
  await page.goto(productPath(product));
  const links = page.locator('[data-gallery] a[data-zoom]');
  for (const link of await links.all()) {
    const href = await link.getAttribute('href');
    expect(href).toBeTruthy();
    const reply = await request.get(href ?? '');
    expect(reply.status()).toBe(200);
    expect(reply.headers()['content-type']).toBe('image/webp');
    const meta = await sharp(await reply.body()).metadata();
    expect(meta.width).toBe(Number(await link.getAttribute('data-zoom-width')));
    expect(meta.height).toBe(Number(await link.getAttribute('data-zoom-height')));
  }
  await context.close();
});
