/**
 * Ports and folders of the checks that run the production build (`npm test`): apart from
 * `npm start`'s (4321 / 4010 / dist / .sandbox) so both can run side by side.
 * `TEST_PORT_OFFSET` (a small whole number) moves both ports, so that two checkouts on one
 * machine can run their checks at the same time.
 */
const offset = Number.parseInt(process.env.TEST_PORT_OFFSET ?? '0', 10) || 0;
const port = String(4391 + offset);
const sandboxPort = String(4392 + offset);

export const TEST_ENV = {
  UPSTREAM: 'sandbox',
  PORT: port,
  SANDBOX_PORT: sandboxPort,
  SANDBOX_DIR: '.sandbox/test',
  DIST_DIR: 'dist-test',
  // The sandbox seeds the hostile catalogue (XSS payloads): the browser tests prove none runs.
  SANDBOX_HOSTILE: '1',
  // The server's shared state (login limits, ended sessions): fresh with the sandbox each run.
  STATE_DIR: '.sandbox/test/state',
  // The sandbox's hosted checkout sends the shopper back to the shop here: the same host as
  // the browser tests use, so the shop's cookies come along.
  SANDBOX_SITE_URL: `http://127.0.0.1:${port}`,
  // The reseller area (spec §2, §6) is off by default: the browser tests cover it.
  FEATURE_RESELLER_AREA: 'true',
  // The tag-manager container (spec §7) is off by default: the browser tests cover it, with
  // the container script answered by a recorder (tests/e2e/analytics.spec.ts) or blocked
  // (playwright.config.ts, scripts/lighthouse.ts): no test reaches Google.
  GTM_CONTAINER_ID: 'GTM-TEST123',
  // The storefronts per host exactly as `.env.example` documents them (a second host on
  // channel 2): the build and the servers start with the documented form, and
  // tests/scale/storefronts.test.ts checks each host gets its own channel.
  // tests/unit/documented-examples.test.ts holds this value to `.env.example`'s.
  STOREFRONTS:
    '{"default":{"name":"Literie","channelId":1,"protocol":"https"},"hosts":{"pro.literie-exemple.fr":{"name":"Literie Pro","channelId":2,"protocol":"https"}}}',
} as const;

/**
 * Where the browser tests find the test server.
 * @internal Read by playwright.config.ts, the browser tests' own configuration.
 */
export const TEST_BASE_URL = `http://127.0.0.1:${TEST_ENV.PORT}`;
