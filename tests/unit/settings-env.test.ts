/**
 * The environment tables of `docs/settings.md` against the code: every variable of the shop's
 * settings table is declared in `astro.config.mjs` (`env.schema`) or read where the page's list
 * says; every one of the webhooks-and-rebuilds table is declared in
 * `src/server/rebuild/config.ts`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const page = read('docs/settings.md');
const config = read('astro.config.mjs');
const rebuildConfig = read('src/server/rebuild/config.ts');

/** The variables named in the first column of the tables of `section`. */
function tableVariables(section: string): string[] {
  const names = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)])
    .map(([, name]) => name ?? '');
  return [...new Set(names)];
}

/** The text of the `## heading` section of the page, up to the next `## ` heading. */
function section(heading: string): string {
  const start = page.indexOf(`\n## ${heading}\n`);
  if (start < 0) return '';
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

const settingsIntro = section('Where each variable is declared and read');
const settings = section("The shop's settings");
const rebuilds = section('Webhooks and rebuilds');

const schemaNames = [...config.matchAll(/^\s+(\w+): envField\.\w+\(/gm)].map(([, n]) => n ?? '');
const rebuildNames = [...rebuildConfig.matchAll(/^ {2}([A-Z][A-Z0-9_]+): /gm)].map(
  ([, name]) => name ?? '',
);

/** Variables of the settings table not in the schema, and the file the page says reads each. */
const READ_ELSEWHERE: Record<string, string> = {
  SITE_URL: 'astro.config.mjs',
  IMAGE_DOMAINS: 'astro.config.mjs',
  CHECKOUT_ORIGINS: 'astro.config.mjs',
  BUILD_RENDER_THREADS: 'src/server/render-threads/parallel-prerender.ts',
  TRUSTED_PROXIES: 'src/shop/auth/client.ts',
  PORT: 'src/server/serve.ts',
  HOST: 'src/server/serve.ts',
  SANDBOX_PORT: 'scripts/lib/upstream.ts',
  SANDBOX_DIR: 'scripts/lib/upstream.ts',
  UPSTREAM: 'scripts/lib/upstream.ts',
};

describe("docs/settings.md's environment tables", () => {
  test('the tables and the schema are found', () => {
    expect(schemaNames.length).toBeGreaterThan(30);
    expect(rebuildNames).toContain('REBUILD_STATUS_TOKEN');
    expect(tableVariables(settings)).toContain('SESSION_SECRET');
    expect(tableVariables(rebuilds)).toContain('CONTENTFUL_WEBHOOK_SECRET');
    expect(settingsIntro).toContain('`SANDBOX_PORT`');
  });

  test('every variable of the schema is in the settings table', () => {
    const table = tableVariables(settings);
    for (const name of schemaNames) expect(table, name).toContain(name);
  });

  test('every other variable of the settings table is read where the page says', () => {
    for (const name of tableVariables(settings)) {
      if (schemaNames.includes(name)) continue;
      const file = READ_ELSEWHERE[name];
      expect(file, `${name}: not in env.schema, nor listed as read elsewhere`).toBeDefined();
      expect(read(file ?? ''), `${name} in ${file ?? ''}`).toMatch(
        new RegExp(`\\benv\\.${name}\\b`),
      );
      expect(settingsIntro, `docs/settings.md names ${name} as read elsewhere`).toContain(
        `\`${name}\``,
      );
    }
  });

  test('the webhooks and rebuilds table is the schema of src/server/rebuild/config.ts', () => {
    const table = tableVariables(rebuilds);
    for (const name of table) expect(rebuildNames, name).toContain(name);
    for (const name of rebuildNames) {
      if (name === 'LOG_LEVEL') continue; // in the shop's settings table
      expect(table, name).toContain(name);
    }
  });
});
