/**
 * `npm test`: every check, in order, stopping at the first failure: types, lint, dead code
 * (knip: unused files, exports and dependencies; knip.jsonc), format, unit,
 * integration, a production build against a fresh sandbox, two servers of that build sharing
 * one Redis and that build with its upstream down, size budgets, dead links, html-validate on
 * its pages, Lighthouse CI and browser tests (Playwright + axe). Browser checks need Chromium:
 * under CI=true a missing browser fails the run; elsewhere it is reported loudly and those
 * checks are not run.
 */
import { rm } from 'node:fs/promises';
import { chromiumPath } from './lib/browser.ts';
import { run } from './lib/run.ts';
import { TEST_ENV } from './lib/test-env.ts';

interface Step {
  name: string;
  command: string[];
  env?: NodeJS.ProcessEnv;
  browser?: boolean;
}

const npx = (bin: string, ...args: string[]): string[] => [
  process.execPath,
  new URL(`../node_modules/${bin}`, import.meta.url).pathname,
  ...args,
];

const testEnv = { ...process.env, ...TEST_ENV };
const steps: Step[] = [
  {
    name: 'types (astro check)',
    command: [process.execPath, 'scripts/with-upstream.ts', 'astro', 'check'],
    env: testEnv,
  },
  {
    name: 'lint (eslint)',
    command: [process.execPath, 'scripts/with-upstream.ts', 'eslint', '--max-warnings', '0', '.'],
    env: testEnv,
  },
  // Unused files, exports, dependencies (knip.jsonc says what runs and why each ignore).
  { name: 'dead code (knip)', command: npx('knip/bin/knip.js', '--no-progress') },
  { name: 'format (prettier)', command: npx('prettier/bin/prettier.cjs', '--check', '.') },
  { name: 'unit', command: npx('vitest/vitest.mjs', 'run', '--project', 'unit') },
  { name: 'integration', command: npx('vitest/vitest.mjs', 'run', '--project', 'integration') },
  {
    name: 'build (fresh sandbox)',
    command: [process.execPath, 'scripts/build.ts', '--out-dir', TEST_ENV.DIST_DIR],
    env: testEnv,
  },
  {
    // Two servers on that build sharing one Redis, then one with its upstream faulted (each
    // test file its own sandbox on its port, then freed).
    name: 'two servers (redis), upstream faults',
    command: npx('vitest/vitest.mjs', 'run', '--project', 'scale'),
    env: testEnv,
  },
  { name: 'size budgets', command: [process.execPath, 'scripts/size-budgets.ts'], env: testEnv },
  // Every page of that build and the on-demand entry points crawled by linkinator on its own
  // server: no link or asset fails, every entry of the redirect list lands on a page.
  { name: 'dead links', command: [process.execPath, 'scripts/check-links.ts'], env: testEnv },
  // html-validate (`.htmlvalidate.mjs`) over a representative page of each kind of that build.
  {
    name: 'html (html-validate)',
    command: [process.execPath, 'scripts/check-html.ts'],
    env: testEnv,
  },
  // Before the browser suite: performance is measured on a quiet machine (right after
  // Playwright's many browsers, one Lighthouse run's blocking time doubled).
  {
    name: 'lighthouse ci',
    command: [process.execPath, 'scripts/lighthouse.ts'],
    env: testEnv,
    browser: true,
  },
  {
    name: 'browser (playwright + axe)',
    command: npx('@playwright/test/cli.js', 'test'),
    env: testEnv,
    browser: true,
  },
];

// `npm test -- --only=build,browser`: only the steps whose name starts with one of these words
// (a partial run while working; the full run is the check).
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
  .filter(Boolean);
if (only) {
  const kept = steps.filter((step) => only.some((word) => step.name.startsWith(word)));
  steps.splice(0, steps.length, ...kept);
}

const browser = chromiumPath();
if (!browser) {
  const message = 'Chromium is missing (apt-get install -y chromium, or set CHROME_PATH)';
  if (process.env.CI === 'true') {
    console.error(`[test] ${message}: browser checks cannot run under CI.`);
    process.exit(1);
  }
  console.warn(`\n[test] WARNING: ${message}; browser checks will NOT run.\n`);
}

await rm(TEST_ENV.SANDBOX_DIR, { recursive: true, force: true });
const results: { name: string; status: string; seconds: number }[] = [];
let failed = false;
for (const step of steps) {
  if (failed) {
    results.push({ name: step.name, status: 'not run', seconds: 0 });
    continue;
  }
  if (step.browser && !browser) {
    results.push({ name: step.name, status: 'NOT RUN (no browser)', seconds: 0 });
    continue;
  }
  console.log(`\n[test] ── ${step.name}`);
  const started = performance.now();
  const [command = '', ...args] = step.command;
  const { code } = await run(command, args, { env: step.env ?? process.env });
  const seconds = (performance.now() - started) / 1000;
  failed = code !== 0;
  results.push({ name: step.name, status: failed ? `FAILED (exit ${code})` : 'passed', seconds });
}

console.log('\n[test] summary');
for (const r of results)
  console.log(`  ${r.status.padEnd(22)} ${r.name} (${r.seconds.toFixed(1)} s)`);
const passed = results.filter((r) => r.status === 'passed').length;
const failedCount = results.filter((r) => r.status.startsWith('FAILED')).length;
console.log(`${passed} passed, ${failedCount} failed`);
process.exit(failed || (!browser && process.env.CI === 'true') ? 1 : 0);
