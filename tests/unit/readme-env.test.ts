/**
 * README's tables of environment variables against the code: every variable of the Settings
 * table is declared in `astro.config.mjs` (`env.schema`) or read where the README's list says;
 * every one of the webhooks-and-rebuilds table is declared in `src/server/rebuild/config.ts`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const readme = read('README.md');
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

const settingsStart = readme.indexOf('## Settings');
const settings = readme.slice(settingsStart, readme.indexOf('\n## ', settingsStart + 1));
const settingsIntro = settings.slice(0, settings.indexOf('\n| '));
const rebuilds = readme.slice(
  readme.indexOf('<!-- rebuilds: begin'),
  readme.indexOf('<!-- rebuilds: end'),
);

const schemaNames = [...config.matchAll(/^\s+(\w+): envField\.\w+\(/gm)].map(([, n]) => n ?? '');
const rebuildNames = [...rebuildConfig.matchAll(/^ {2}([A-Z][A-Z0-9_]+): /gm)].map(
  ([, name]) => name ?? '',
);

/** Variables of the Settings table not in the schema, and the file the README says reads each. */
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

describe("README's environment tables", () => {
  test('the tables and the schema are found', () => {
    expect(schemaNames.length).toBeGreaterThan(30);
    expect(rebuildNames).toContain('REBUILD_STATUS_TOKEN');
    expect(tableVariables(settings)).toContain('SESSION_SECRET');
    expect(tableVariables(rebuilds)).toContain('CONTENTFUL_WEBHOOK_SECRET');
  });

  test('every variable of the schema is in the Settings table', () => {
    const table = tableVariables(settings);
    for (const name of schemaNames) expect(table, name).toContain(name);
  });

  test('every other variable of the Settings table is read where the README says', () => {
    for (const name of tableVariables(settings)) {
      if (schemaNames.includes(name)) continue;
      const file = READ_ELSEWHERE[name];
      expect(file, `${name}: not in env.schema, nor listed as read elsewhere`).toBeDefined();
      expect(read(file ?? ''), `${name} in ${file ?? ''}`).toMatch(
        new RegExp(`\\benv\\.${name}\\b`),
      );
      expect(settingsIntro, `the README names ${name} as read elsewhere`).toContain(`\`${name}\``);
    }
  });

  test('the webhooks and rebuilds table is the schema of src/server/rebuild/config.ts', () => {
    const table = tableVariables(rebuilds);
    for (const name of table) expect(rebuildNames, name).toContain(name);
    for (const name of rebuildNames) {
      if (name === 'LOG_LEVEL') continue; // in the Settings table
      expect(table, name).toContain(name);
    }
  });
});
