/**
 * A hand-off a client trusts, at 360, 390 and 1280 px (screenshots kept in
 * test-results/visual/): a reseller logging in at /connexion lands in the reseller area; their
 * single seller is preselected; the client's e-mail (rendered from the sandbox's outbox) lists
 * the cart; the client's cart says who prepared it; the hosted checkout opens with the client's
 * e-mail; the reseller area follows the cart (sent, opened, paid); the used link says so.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { CUSTOMERS, SANDBOX_BREVO_KEY } from '@literie/sandbox/fixtures';
import { TEST_ENV } from '../../scripts/lib/test-env.ts';
import { t } from '../../src/lib/i18n/index.ts';
import {
  anyOf,
  documentStatus,
  expect,
  payOnHostedCheckout,
  test,
  waitForHydration,
  waitForIsland,
} from './helpers.ts';

test.use({
  // A used link answers 410 and a tampered or cut one 404, on purpose: the browser logs the status.
  allowedConsoleErrors: anyOf(documentStatus('/panier', 404), documentStatus('/panier', 410)),
});

// A reseller with a single seller (Sophie Bernard).
const reseller = CUSTOMERS.reseller;
const seller = reseller.sellers[0];
const sandbox = `http://127.0.0.1:${TEST_ENV.SANDBOX_PORT}`;

async function lastMail(email: string): Promise<{ body: string; textContent?: string }> {
  const headers = { 'api-key': SANDBOX_BREVO_KEY };
  const listed = (await (
    await fetch(`${sandbox}/brevo/v3/smtp/emails?email=${encodeURIComponent(email)}&sort=desc`, {
      headers,
    })
  ).json()) as { transactionalEmails?: { uuid: string }[] };
  const uuid = listed.transactionalEmails?.[0]?.uuid ?? '';
  return (await (await fetch(`${sandbox}/brevo/v3/smtp/emails/${uuid}`, { headers })).json()) as {
    body: string;
    textContent?: string;
  };
}

/** axe on the page's own markup (the reviews provider's iframe is the provider's). */
async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .exclude('iframe')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/visual/${name}.png`, fullPage: true });

async function asClient<T>(browser: Browser, width: number, run: (page: Page) => Promise<T>) {
  const context = await browser.newContext({
    viewport: { width, height: width < 500 ? 844 : 800 },
  });
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}

for (const width of [360, 390, 1280]) {
  test(`the reseller journey at ${String(width)} px: login, send, client opens and pays, states, used link`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });

    // Logging in at the shop's own login page lands in the reseller area.
    await page.goto('/connexion');
    await waitForHydration(page);
    await page.getByLabel(t('login.email')).fill(reseller.email);
    await page.getByLabel(t('login.password')).fill(reseller.password);
    await page.getByRole('button', { name: t('login.submit') }).click();
    await expect(page).toHaveURL(/\/espace-revendeur$/, { timeout: 20_000 });

    // Every cart link of the area leads to the reseller cart: the footer's "Mon panier" too.
    const footerCart = page.getByRole('contentinfo').getByRole('link', { name: t('cart.title') });
    await expect(footerCart).toHaveAttribute('href', '/espace-revendeur/panier');

    // A product in the reseller cart.
    await page.getByRole('searchbox', { name: t('reseller.home.search') }).fill('matelas');
    await page
      .getByRole('main')
      .getByRole('button', { name: t('reseller.home.searchSubmit') })
      .click();
    const add = page.getByRole('button', { name: /^Ajouter au panier : / }).first();
    await waitForIsland(add);
    await add.click();
    await expect(page.getByRole('button', { name: t('cart.added') })).toBeVisible();

    // The consumer cart leads a reseller to the reseller cart.
    await page.goto('/panier');
    await expect(page).toHaveURL(/\/espace-revendeur\/panier$/);
    await waitForHydration(page);
    // The single seller is preselected: the cart goes without choosing.
    await expect(page.getByLabel(t('reseller.seller'))).toHaveValue(seller);
    const client = `client.${String(width)}.${String(Date.now())}@example.fr`;
    await page.getByLabel(t('reseller.clientEmail')).fill(client);
    await shot(page, `reseller-send-${String(width)}`);
    await page.getByRole('button', { name: t('reseller.sendCart') }).click();
    await expect(page.getByRole('status').filter({ hasText: client })).toBeVisible();

    // The client's e-mail, rendered as a mail client would, looked at.
    const mail = await lastMail(client);
    expect(mail.textContent).toContain(seller);
    const href = /href="([^"]+)"/.exec(mail.body)?.[1]?.replaceAll('&amp;', '&') ?? '';
    const link = new URL(href);
    const cartId = link.searchParams.get('id') ?? '';
    await asClient(browser, width, async (mailPage) => {
      await mailPage.setContent(mail.body);
      await expect(mailPage.getByText(t('mail.cartLink.total'))).toBeVisible();
      await expect(
        mailPage.locator('td', { hasText: t('mail.cartLink.sellerTitle') }).last(),
      ).toContainText(`${seller} (${reseller.shopName})`);
      await shot(mailPage, `reseller-email-${String(width)}`);
    });

    // The reseller area lists the cart as sent.
    const sent = page.locator(`[data-sent-cart="${cartId}"]`);
    await page.goto('/espace-revendeur');
    await expect(sent).toHaveAttribute('data-state', 'sent');

    // The client opens the link: the cart says who prepared it; the hosted checkout knows them.
    const linkPath = `${link.pathname}${link.search}`;
    await asClient(browser, width, async (clientPage) => {
      await clientPage.goto(linkPath);
      await expect(clientPage).toHaveURL(/\/panier$/);
      const preparedBy = clientPage.locator('[data-prepared-by]');
      await expect(preparedBy).toContainText(
        t('reseller.preparedBy', { seller, reseller: reseller.shopName }),
      );
      await expect(preparedBy.getByRole('link', { name: reseller.email })).toBeVisible();
      await waitForHydration(clientPage);
      await expect(clientPage.locator('[data-cart-line]')).toHaveCount(1);
      expect(await axeViolations(clientPage)).toEqual([]);
      await shot(clientPage, `reseller-client-cart-${String(width)}`);

      await page.reload();
      await expect(sent).toHaveAttribute('data-state', 'opened');

      await clientPage.goto('/paiement');
      await clientPage.getByRole('button', { name: t('checkout.asGuest') }).click();
      await expect(clientPage.getByLabel('Adresse e-mail')).toHaveValue(client);
      await shot(clientPage, `reseller-hosted-checkout-${String(width)}`);
      await payOnHostedCheckout(clientPage);
      await expect(clientPage.locator('[data-order-confirmation]')).toBeVisible();
    });

    // Paid, in the reseller area.
    await page.reload();
    await expect(sent).toHaveAttribute('data-state', 'paid');
    await expect(sent).toContainText(t('reseller.sent.state.paid'));
    expect(await axeViolations(page)).toEqual([]);
    await sent.scrollIntoViewIfNeeded();
    await shot(page, `reseller-area-sent-${String(width)}`);

    // The link again: used, said so, with who to ask; no cart cookie.
    await asClient(browser, width, async (latePage) => {
      const reply = await latePage.goto(linkPath);
      expect(reply?.status()).toBe(410);
      await expect(
        latePage.getByRole('heading', { level: 1, name: t('reseller.link.usedTitle') }),
      ).toBeVisible();
      await expect(latePage.getByRole('link', { name: reseller.email })).toBeVisible();
      const cookies = await latePage.context().cookies();
      expect(cookies.some((c) => c.name === 'cart-id')).toBe(false);
      await shot(latePage, `reseller-used-link-${String(width)}`);
    });
  });
}

test('a tampered link says it is not valid and names the shop’s contact, 404', async ({ page }) => {
  const reply = await page.goto(
    '/panier?id=6f0b8c1e-4b1a-4c55-9a57-1f2d3c4b5a69&token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.bbb',
  );
  expect(reply?.status()).toBe(404);
  await expect(
    page.getByRole('heading', { level: 1, name: t('reseller.link.invalidTitle') }),
  ).toBeVisible();
  await expect(page.getByText(t('reseller.link.askShop'))).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  const cut = await page.goto('/panier?id=6f0b8c1e-4b1a-4c55-9a57-1f2d3c4b5a69');
  expect(cut?.status()).toBe(404);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'reseller-invalid-link-390');
});
