/**
 * The browser suite's console-error guard (helpers.ts): a console error or an
 * uncaught page error fails the test that saw it, on its page and on pages of contexts it
 * makes; a spec's declared pattern lets only the lines it matches through. The failing cases
 * are expected to fail (`test.fail()`): they pass only while the guard fails them.
 */
import { anyOf, expect, test } from './helpers.ts';

test('a console error fails the test', async ({ page }) => {
  test.fail();
  await page.goto('/mentions-legales');
  await page.evaluate(() => {
    console.error('guard check: an error');
  });
});

test('an uncaught page error fails the test', async ({ page }) => {
  test.fail();
  await page.goto('/mentions-legales');
  const seen = page.waitForEvent('pageerror');
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('guard check: uncaught');
    });
  });
  await seen;
});

test('a page of a context the test makes is watched too', async ({ browser }) => {
  test.fail();
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto('/mentions-legales');
  await other.evaluate(() => {
    console.error('guard check: another browser');
  });
  await context.close();
});

test('warnings and logs are no errors', async ({ page }) => {
  await page.goto('/mentions-legales');
  await page.evaluate(() => {
    console.warn('guard check: a warning');
    console.info('guard check: information');
  });
  await expect(page.getByRole('main')).toBeVisible();
});

test.describe('a declared pattern', () => {
  test.use({ allowedConsoleErrors: anyOf(/guard check: provoked$/) });

  test('lets its lines through', async ({ page }) => {
    await page.goto('/mentions-legales');
    await page.evaluate(() => {
      console.error('guard check: provoked');
    });
    await expect(page.getByRole('main')).toBeVisible();
  });

  test('and only them', async ({ page }) => {
    test.fail();
    await page.goto('/mentions-legales');
    await page.evaluate(() => {
      console.error('guard check: provoked');
      console.error('guard check: something else');
    });
  });
});
