import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS, chromiumPath } from './scripts/lib/browser.ts';
import { TAG_MANAGER_ORIGIN } from './src/lib/analytics/tag-manager.ts';
import { TEST_BASE_URL, TEST_ENV } from './scripts/lib/test-env.ts';
import { consentCookie } from './tests/e2e/consent-cookie.ts';

const executablePath = chromiumPath();
// The test build sets GTM_CONTAINER_ID: the tag manager's host resolves nowhere, so no test
// reaches Google; tests/e2e/analytics.spec.ts answers the container with `page.route`.
const args = [
  ...CHROMIUM_FLAGS,
  `--host-resolver-rules=MAP ${new URL(TAG_MANAGER_ORIGIN).host} ~NOTFOUND`,
];
if (!executablePath) {
  throw new Error('Chromium is missing: apt-get install -y chromium, or set CHROME_PATH.');
}

// Browser tests run against the production build served the way `npm start` serves it
// (scripts/start.ts --no-build on the build `npm test` made in DIST_DIR).
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: TEST_BASE_URL,
    locale: 'fr-FR',
    // The shop's service worker would take the pages' requests out of `page.route`'s reach:
    // blocked, except in the offline suite, which tests it (`test.use`).
    serviceWorkers: 'block',
    trace: 'off',
    launchOptions: { executablePath, args },
    // Every suite starts as a shopper who refused cookies: the consent banner covers nothing
    // a test clicks. tests/e2e/consent.spec.ts starts without a choice (the first visit);
    // suites that need the container call `grantConsent` (helpers.ts).
    storageState: { cookies: [consentCookie({ analytics: false, ads: false })], origins: [] },
  },
  projects: [
    {
      name: 'desktop',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath, args },
      },
    },
  ],
  webServer: {
    command: 'node scripts/start.ts --no-build',
    url: `${TEST_BASE_URL}/`,
    env: { ...TEST_ENV },
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
