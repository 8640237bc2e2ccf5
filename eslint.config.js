// @ts-check
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { FORBIDDEN, layerPatterns } from './scripts/lib/layers.js';

// One reader of the environment per side: src/shop/config/config.ts imports
// astro:env/server, src/lib/env-client.ts astro:env/client; everything else reads them there.
const ENV_READERS = {
  group: ['astro:env/server', 'astro:env/client'],
  message:
    'Read the environment through src/shop/config/config.ts (server) or src/lib/env-client.ts (public values).',
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
// Islands and stores run in the browser: no i18next with the whole message file (pages hand
// islands their texts: pickMessages + i18n/translate.ts).
const WHOLE_MESSAGES = {
  group: ['**/lib/i18n/index.ts', 'i18next'],
  allowTypeImports: true,
  message: 'Use the texts handed as props with i18n/translate.ts.',
};
/**
 * What a layer forbids beyond its folders (scripts/lib/layers.js).
 * @type {Record<string, object[]>}
 */
const LAYER_EXTRAS = {
  islands: [WHOLE_MESSAGES],
  // Components render what they are given: the loaders read upstream and the disk.
  components: [
    {
      group: ['node:fs', 'node:fs/*', 'fs', 'fs/*'],
      message: 'No disk in a component: load the data in src/shop/loaders/.',
    },
  ],
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
    ignores: ['src/shop/config/config.ts', 'src/lib/env-client.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ENV_READERS] }] },
  },
  // Imports only go down (scripts/lib/layers.js, docs/architecture.md "Layers"): one block per
  // layer of src/, each with its forbidden folders and the environment rule; a file's last
  // matching block wins, so each block carries every pattern its files need.
  ...Object.keys(FORBIDDEN).map((layer) => {
    const patterns = [...layerPatterns(layer), ...(LAYER_EXTRAS[layer] ?? [])];
    return {
      files: [`src/${layer}/**`],
      rules: {
        'no-restricted-imports': /** @type {['error', object]} */ ([
          'error',
          { patterns: [...patterns, ENV_READERS, NO_SANDBOX] },
        ]),
      },
    };
  }),
  {
    // The two readers of the environment (src/shop/config/config.ts, src/lib/env-client.ts).
    files: ['src/shop/config/config.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...layerPatterns('shop'), NO_SANDBOX] }],
    },
  },
  {
    files: ['src/lib/env-client.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...layerPatterns('lib'), NO_SANDBOX] }],
    },
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
    // Astro's middleware entry only hands over to the shop's middleware.
    files: ['src/middleware.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...layerPatterns('pages'), ENV_READERS, NO_SANDBOX] },
      ],
    },
  },
  {
    // Stores run in the browser: no i18next with the whole message file, as islands.
    files: ['src/lib/stores/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...layerPatterns('lib'), ENV_READERS, WHOLE_MESSAGES, NO_SANDBOX] },
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
      'no-restricted-syntax': [
        'error',
        {
          selector: "Literal[value='networkidle']",
          message:
            "Playwright's networkidle can wait forever once a lazy iframe loads late: use waitForNetworkQuiet (tests/e2e/helpers.ts).",
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
