// @ts-check
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// One reader of the environment per side (issue 20): src/lib/server/config.ts imports
// astro:env/server, src/lib/env-client.ts astro:env/client; everything else reads them there.
const ENV_READERS = {
  group: ['astro:env/server', 'astro:env/client'],
  message:
    'Read the environment through src/lib/server/config.ts (server) or src/lib/env-client.ts (public values).',
};
// The sandbox (sandbox/, the workspace package @literie/sandbox) and the shop meet only
// through src/lib/sandbox-contract.ts: the shop never imports the sandbox, and the sandbox
// imports nothing outside its package but that module.
const NO_SANDBOX = {
  regex: '(?:^|/)sandbox(?:/|$)',
  message: 'The shop never imports the sandbox: it shares src/lib/sandbox-contract.ts with it.',
};
/**
 * Imports that leave sandbox/ from a file `depth` folders below the repository, except the
 * contract.
 * @param {number} depth
 */
const outOfSandbox = (depth) => ({
  regex: `^(?:\\.\\./){${String(depth)}}(?!src/lib/sandbox-contract\\.ts$)`,
  message: 'The sandbox imports from outside its package only src/lib/sandbox-contract.ts.',
});
const SERVER_ONLY = {
  group: ['**/lib/server/**', 'astro:env/server'],
  message: 'Server-only code.',
};

export default defineConfig(
  {
    ignores: [
      'dist/',
      'dist-test/',
      'dist-*/',
      '.astro/',
      'node_modules/',
      '.sandbox/',
      'sandbox/.sandbox/',
      '.bench/',
      '.lighthouseci/',
      'test-results/',
      'playwright-report/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.astro'],
      },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  ...astro.configs.recommended,
  {
    files: ['**/*.astro'],
    languageOptions: {
      // astro-eslint-parser takes `project`, not `projectService`.
      parserOptions: {
        parser: tseslint.parser,
        extraFileExtensions: ['.astro'],
        projectService: false,
        project: true,
      },
    },
  },
  { files: ['**/*.tsx'], ...reactHooks.configs.flat.recommended },
  // Accessibility of the markup, statically: the islands' JSX with jsx-a11y-x's recommended
  // rules, and the same rules on .astro templates through eslint-plugin-astro's wrapper (it
  // loads jsx-a11y-x and maps `for`, `set:html`... to their JSX names). axe in the browser
  // tests checks the rendered pages.
  { files: ['**/*.tsx'], ...jsxA11y.configs.recommended },
  // (Only its rules: the rest of that config repeats astro's base, set above.)
  { files: ['**/*.astro'], rules: astro.configs['jsx-a11y-recommended'].at(-1)?.rules },
  {
    // The players of "Les yeux fermés" have no captions track: the content model
    // (sleepContent in Contentful) has no captions or transcript field yet, and an empty
    // <track> would only hide that. The entry's text is on the page with the player.
    files: ['src/components/content/SleepContentDetail.astro'],
    rules: { 'astro/jsx-a11y/media-has-caption': 'off' },
  },
  {
    files: ['**/*.{ts,tsx,astro,js,mjs}'],
    ignores: ['src/lib/server/config.ts', 'src/lib/env-client.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ENV_READERS] }] },
  },
  {
    files: ['src/**'],
    ignores: ['src/lib/server/config.ts', 'src/lib/env-client.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ENV_READERS, NO_SANDBOX] }] },
  },
  {
    files: ['src/lib/server/config.ts', 'src/lib/env-client.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SANDBOX] }] },
  },
  {
    files: ['sandbox/*/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ENV_READERS, outOfSandbox(2)] }] },
  },
  {
    files: ['sandbox/*/*/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ENV_READERS, outOfSandbox(3)] }] },
  },
  {
    // Server code (connectors, secrets) is never imported from the browser.
    files: ['src/lib/commerce/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVER_ONLY, ENV_READERS, NO_SANDBOX] }],
    },
  },
  {
    // Components render what they are given (issue 20): the pages, layouts and the loaders of
    // src/lib/server/loaders/ read upstream and the disk.
    files: ['src/components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/lib/server/bigcommerce/**',
                '**/lib/server/contentful/**',
                '**/lib/server/brevo/**',
                '**/lib/server/reviews/**',
              ],
              message: 'No connector in a component: load the data in src/lib/server/loaders/.',
            },
            {
              group: ['node:fs', 'node:fs/*', 'fs', 'fs/*'],
              message: 'No disk in a component: load the data in src/lib/server/loaders/.',
            },
            ENV_READERS,
            NO_SANDBOX,
          ],
        },
      ],
    },
  },
  {
    // Islands and stores run in the browser: no server code, and no i18next with the whole
    // message file (pages hand islands their texts: pickMessages + i18n/translate.ts).
    files: ['src/islands/**', 'src/lib/stores/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            SERVER_ONLY,
            {
              group: ['**/lib/i18n/index.ts', 'i18next'],
              allowTypeImports: true,
              message: 'Use the texts handed as props with i18n/translate.ts.',
            },
            ENV_READERS,
            NO_SANDBOX,
          ],
        },
      ],
    },
  },
  {
    // The browser suite's `test` carries the console-error guard (tests/e2e/helpers.ts).
    files: ['tests/e2e/**/*.ts'],
    ignores: ['tests/e2e/helpers.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test', 'expect'],
              message:
                'Import test and expect from tests/e2e/helpers.ts (the console-error guard).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
