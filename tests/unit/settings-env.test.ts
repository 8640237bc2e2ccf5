/**
 * The environment tables of `docs/settings.md` against the code: every variable of the shop's
 * settings table is one of the one table of the environment (`src/shop/config/environment.ts`),
 * and every variable of that table is in the settings table or in the webhooks-and-rebuilds
 * table, which holds exactly the storefront server's settings (`src/server/rebuild/config.ts`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { VARIABLES, type VariableName } from '../../src/shop/config/environment.ts';

const VARIABLE_NAMES = Object.keys(VARIABLES) as VariableName[];

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const page = read('docs/settings.md');
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

const settings = section("The shop's settings");
const rebuilds = section('Webhooks and rebuilds');

const schemaNames = VARIABLE_NAMES.filter((name) => VARIABLES[name].astro !== undefined);
const serveList = /const SERVE_VARIABLES = \[([^\]]*)\]/.exec(rebuildConfig)?.[1] ?? '';
const rebuildNames = [...serveList.matchAll(/'([A-Z][A-Z0-9_]+)'/g)].map(([, name]) => name ?? '');

/** Variables of the table documented elsewhere, and where. */
const DOCUMENTED_ELSEWHERE: Record<string, string> = {
  // The build a check or the server serves: a variable of the scripts.
  DIST_DIR: 'scripts/README.md',
};

describe("docs/settings.md's environment tables", () => {
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

  test('every variable of the Settings table is one of the table of the environment', () => {
    for (const name of tableVariables(settings)) expect(VARIABLE_NAMES, name).toContain(name);
  });

  test('every variable of the table of the environment is documented', () => {
    const documented = new Set([...tableVariables(settings), ...tableVariables(rebuilds)]);
    for (const name of VARIABLE_NAMES) {
      const elsewhere = DOCUMENTED_ELSEWHERE[name];
      if (elsewhere === undefined) expect(documented.has(name), name).toBe(true);
      else expect(read(elsewhere), `${name} in ${elsewhere}`).toContain(`\`${name}\``);
    }
  });

  test('the webhooks and rebuilds table is the schema of src/server/rebuild/config.ts', () => {
    const table = tableVariables(rebuilds);
    for (const name of table) expect(rebuildNames, name).toContain(name);
    for (const name of rebuildNames) {
      if (name === 'LOG_LEVEL' || name === 'DIST_DIR') continue; // Settings table, scripts
      expect(table, name).toContain(name);
    }
  });
});
