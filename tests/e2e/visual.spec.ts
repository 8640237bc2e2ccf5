/**
 * Pages that look right: every page kind at 390 and 1280 px, measured on its
 * pixels (check.ts): no visible text the colour of what lies behind it, no interactive element
 * painting over another's text. The screenshots stay in test-results/visual/ to be looked at.
 */
import { type Page } from '@playwright/test';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { CUSTOMERS, PRODUCTS } from '@literie/sandbox/fixtures';
import { anyOf, documentStatus, expect, test, waitForHydration, waitForIsland } from './helpers.ts';
import { checkPage, formatFindings, VISUAL_DIR } from './visual/check.ts';

const WIDTHS = [390, 1280] as const;

// Two widths of a long page, each laid out, scanned and shot twice, on a shared 2-core machine.
test.describe.configure({ mode: 'parallel', timeout: 120_000 });

test.beforeAll(() => {
  console.log(`Visual check screenshots: ${VISUAL_DIR}`);
});

/** Opens `url` at each width and checks it; fails with every finding of every width. */
async function checkAtWidths(page: Page, name: string, url: string): Promise<void> {
  const report: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(url);
    await waitForHydration(page);
    const findings = await checkPage(page, name, width);
    if (findings.length > 0) report.push(formatFindings(name, width, findings));
  }
  expect(report.join('\n'), `see the screenshots in ${VISUAL_DIR}`).toBe('');
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await waitForHydration(page);
  await page.getByLabel(t('login.email')).fill(email);
  await page.getByLabel(t('login.password')).fill(password);
  await page.getByRole('button', { name: t('login.submit') }).click();
}

async function addToCart(page: Page): Promise<void> {
  const add = page.getByRole('button', { name: /^Ajouter au panier/ }).first();
  await waitForIsland(add);
  await add.click();
  await expect(page.getByRole('button', { name: t('cart.added') })).toBeVisible();
}

const anonymous: [name: string, url: string][] = [
  ['home', '/'],
  ['category', '/c/matelas'],
  ['listing-view', '/c/matelas?sort=2&page=2'],
  ['product', productPath({ id: PRODUCTS.trackingVariant, name: 'produit' })],
  ['brand', '/marque/dormelune'],
  ['search', '/resultats-de-recherche/matelas'],
  ['sleep-list', '/les-yeux-fermes'],
  ['sleep-detail', '/les-yeux-fermes/la-respiration-4-7-8-mode-d-emploi'],
  ['content', '/mentions-legales'],
  ['error-404', '/page-inconnue'],
  ['reseller-login', '/espace-revendeur/connexion'],
];

// The error page is opened on purpose: its document answers 404.
test.use({ allowedConsoleErrors: anyOf(documentStatus('/page-inconnue', 404)) });

for (const [name, url] of anonymous) {
  test(`looks right: ${name}`, async ({ page }) => {
    await checkAtWidths(page, name, url);
  });
}

// On a phone the product itself is on the first screen (844 px tall): the title,
// the price, the rating and the first option of the picker, at 360, 390 and 430 px wide.
for (const width of [360, 390, 430] as const) {
  test(`the product page's first screen shows the product: ${width} px`, async ({ page }) => {
    const screen = { width, height: 844 };
    await page.setViewportSize(screen);
    await page.goto(productPath({ id: PRODUCTS.trackingVariant, name: 'produit' }));
    const title = page.getByRole('heading', { level: 1 });
    const price = page.locator('[aria-live="polite"] > p').first();
    const rating = page.locator('main .rating').first();
    const firstOption = page.locator('[data-option-id]').first().locator('label, select').first();
    await expect(title).toHaveCount(1);
    await expect(firstOption).toBeVisible();
    await page.screenshot({ path: `${VISUAL_DIR}/product-first-screen-${width}.png` });
    const boxes = {
      title: await title.boundingBox(),
      price: await price.boundingBox(),
      rating: await rating.boundingBox(),
      firstOption: await firstOption.boundingBox(),
    };
    for (const [name, box] of Object.entries(boxes)) {
      expect(box, name).not.toBeNull();
      expect(box?.y ?? -1, `${name} starts on the screen`).toBeGreaterThanOrEqual(0);
    }
    // The title, the price and the rating are whole on the first screen; the picker starts on it.
    for (const name of ['title', 'price', 'rating'] as const) {
      const box = boxes[name];
      expect((box?.y ?? 0) + (box?.height ?? 0), `${name} ends on the screen`).toBeLessThanOrEqual(
        screen.height,
      );
    }
    expect(boxes.firstOption?.y ?? Infinity, 'the first option').toBeLessThan(screen.height);
    // Nothing wider than the screen, and the page's own check of what shows.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
  });
}

test('looks right: cart with an item', async ({ page }) => {
  await page.goto(productPath({ id: PRODUCTS.trackingNone, name: 'produit' }));
  await addToCart(page);
  await checkAtWidths(page, 'cart', '/panier');
});

test('looks right: account', async ({ page }) => {
  await page.goto('/connexion');
  await logIn(page, CUSTOMERS.marie.email, CUSTOMERS.marie.password);
  // The sandbox hashes passwords slowly on purpose, and the machine is shared.
  await expect(page).toHaveURL(/mes-informations$/, { timeout: 20_000 });
  await checkAtWidths(page, 'account-orders', '/mon-compte/mes-commandes');
  await checkAtWidths(
    page,
    'account-order',
    `/mon-compte/mes-commandes/${CUSTOMERS.marie.orders.shipped}`,
  );
});

test('looks right: reseller area and cart', async ({ page }) => {
  const reseller = CUSTOMERS.resellerWithSellers;
  await page.goto('/espace-revendeur/connexion');
  await logIn(page, reseller.email, reseller.password);
  await expect(page).toHaveURL(/\/espace-revendeur$/, { timeout: 20_000 });
  await checkAtWidths(page, 'reseller-home', '/espace-revendeur');
  await page.getByRole('searchbox', { name: t('reseller.home.search') }).fill('matelas');
  await page
    .getByRole('main')
    .getByRole('button', { name: t('reseller.home.searchSubmit') })
    .click();
  await addToCart(page);
  await checkAtWidths(page, 'reseller-cart', '/espace-revendeur/panier');
});

// The check can fail: planted defects on a clean page are found, and only they.
test('the visual check finds text the colour of its box, text under a button, text cut off', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/mentions-legales');
  await waitForHydration(page);
  // Element styles set through the CSSOM (the CSP forbids inline style attributes, not this).
  await page.evaluate(() => {
    const main = document.querySelector('main') ?? document.body;
    const heading = main.querySelector('h1');
    if (!heading) throw new Error('No h1 to plant the defect on');
    let box: Element | null = heading;
    while (box && getComputedStyle(box).backgroundColor === 'rgba(0, 0, 0, 0)') {
      box = box.parentElement;
    }
    heading.style.color = box ? getComputedStyle(box).backgroundColor : 'rgb(255, 255, 255)';

    const make = (tag: string, id: string, text: string, css: Partial<CSSStyleDeclaration>) => {
      const element = document.createElement(tag);
      element.id = id;
      element.textContent = text;
      Object.assign(element.style, css);
      return element;
    };
    // Over an image (a gradient, where axe gives up): one text in the image's own colour where
    // it stands, one readable.
    const picture = make('div', 'probe-picture', '', {
      backgroundImage: 'linear-gradient(90deg, #1a2439 0 50%, #6a81ab 50% 100%)',
      padding: '24px',
      display: 'flex',
      justifyContent: 'space-between',
    });
    picture.append(
      make('p', 'probe-hidden', 'Texte perdu dans l’image', { color: '#1a2439', fontSize: '24px' }),
      make('p', 'probe-readable', 'Texte lisible', { color: '#ffffff', fontSize: '24px' }),
    );
    // A button painted over a paragraph, and a transparent stretched link (a card's) over
    // another: only the first covers anything.
    const covered = make('div', 'probe-covered-box', '', {
      position: 'relative',
      margin: '24px 0',
    });
    covered.append(
      make('p', 'probe-covered', 'Texte sous le bouton', { fontSize: '18px' }),
      make('button', 'probe-cover', '♥', {
        position: 'absolute',
        top: '0',
        left: '40px',
        width: '60px',
        height: '30px',
        background: '#ffffff',
      }),
    );
    const stretched = make('div', 'probe-stretched-box', '', { position: 'relative' });
    const link = make('a', 'probe-stretched', '', { position: 'absolute', inset: '0' });
    link.setAttribute('href', '#');
    link.setAttribute('aria-label', 'Carte');
    stretched.append(make('p', 'probe-under-link', 'Texte sous un lien transparent', {}), link);
    // A label too long for its box: cut off when the box clips, out of its colour when the
    // box is a painted button; an ellipsis is a cut on purpose.
    const narrow = { width: '90px', whiteSpace: 'nowrap' };
    const cuts = make('div', 'probe-cuts', '', { display: 'flex', gap: '24px', margin: '24px 0' });
    cuts.append(
      make('p', 'probe-clipped', 'Un texte trop long pour sa boîte', {
        ...narrow,
        overflow: 'hidden',
      }),
      make('button', 'probe-spilled', 'Un libellé trop long', {
        ...narrow,
        background: '#1a2439',
        color: '#ffffff',
      }),
      make('p', 'probe-ellipsis', 'Un texte coupé exprès', {
        ...narrow,
        overflow: 'hidden',
        textOverflow: 'ellipsis',
      }),
    );
    main.prepend(picture, covered, stretched, cuts);
  });
  const findings = await checkPage(page, 'probe', 1280);
  const found = findings.map((f) => `${f.kind} ${f.text} ${f.detail}`);
  expect(found).toHaveLength(5);
  expect(found).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^unreadable Mentions légales no pixel of the text shows/),
      expect.stringMatching(/^unreadable Texte perdu dans l’image no pixel of the text shows/),
      expect.stringMatching(/^covered Texte sous le bouton covered by .*button#probe-cover/),
      expect.stringMatching(
        /^cut Un texte trop long pour sa boîte \d+ % cut off by p#probe-clipped/,
      ),
      expect.stringMatching(/^cut Un libellé trop long \d+ % out of its own box/),
    ]),
  );
});
