/**
 * Every value the README, the docs pages and `.env.example` give for a variable of the shop parses through the
 * one table of the environment (`src/shop/config/environment.ts`), and through the shop's own
 * parser where the value has one (hosts, proxies, render threads, the reviews site, the
 * reassurance columns, the storefronts): a documented example that the shop would refuse at
 * startup fails here. Examples are taken from the text, never written here:
 *
 * - `.env.example`: every `NAME=value` line, commented or not (an empty value is a blank to
 *   fill in, not an example; a trailing `# comment` is not part of the value);
 * - README: every `NAME=value` written in the text (commands such as
 *   `FEATURE_RESELLER_AREA=true npm start`), the default column of its tables of variables
 *   (literal values in backticks; a cell naming another variable or a pattern with `{…}` is a
 *   rule, not a value) and the JSON examples of their meaning column.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseVariable, VARIABLES, type VariableName } from '../../src/shop/config/environment.ts';
import { parseImageDomains } from '../../src/server/pictures/image-hosts.ts';
import { parseCheckoutOrigins } from '../../src/shop/html/csp.ts';
import { parseTrustedProxies } from '../../src/shop/auth/client.ts';
import { reviewSite } from '../../src/shop/connectors/reviews/sites.ts';
import { parseContainerId } from '../../src/lib/analytics/tag-manager.ts';
import { renderThreads } from '../../src/server/render-threads/parallel-prerender.ts';
import { ReassuranceSchema } from '../../src/shop/view-models/layout/reassurance.ts';
import { TEST_ENV } from '../../scripts/lib/test-env.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const known = new Set<string>(Object.keys(VARIABLES));
const isVariable = (name: string): name is VariableName => known.has(name);

interface Example {
  name: VariableName;
  value: string;
  where: string;
}

/** `NAME=value` lines of an env file (commented or not). */
function envFileExamples(text: string, file: string): Example[] {
  return text.split('\n').flatMap((line, index) => {
    const match = /^#?\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) return [];
    const [, name = '', raw = ''] = match;
    const value = raw.replace(/\s+#.*$/, '').trim();
    if (value === '' || !isVariable(name)) return [];
    return [{ name, value, where: `${file}:${String(index + 1)}` }];
  });
}

/** `NAME=value` written in a Markdown text (in commands or inline code). */
function inlineExamples(text: string, file: string): Example[] {
  return [...text.matchAll(/(?<![A-Z0-9_])([A-Z][A-Z0-9_]*)=([^\s`'"|)]+)/g)].flatMap(
    ([, name = '', value = '']) =>
      isVariable(name) ? [{ name, value, where: `${file}: ${name}=${value}` }] : [],
  );
}

/** The literal defaults and JSON examples of the tables whose rows name variables. */
function tableExamples(text: string, file: string): Example[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => {
      const [, first = '', defaults = '', meaning = ''] = line.split(/(?<!\\)\|/);
      const names = [...first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map(([, name = '']) => name);
      const cells = defaults.split(' / ').map((cell) => cell.trim());
      const examples: Example[] = [];
      names.forEach((name, index) => {
        if (!isVariable(name)) return;
        const literal = /^`([^`]+)`/.exec(
          cells.length === names.length ? (cells[index] ?? '') : '',
        );
        const value = literal?.[1];
        if (value !== undefined && !known.has(value) && !value.includes('{')) {
          examples.push({ name, value, where: `${file} table, default of ${name}` });
        }
      });
      for (const [, json = ''] of meaning.matchAll(/`([[{][^`]*[\]}])`/g)) {
        const [name] = names;
        if (name !== undefined && isVariable(name) && /^[[{]\s*["[{]/.test(json)) {
          examples.push({ name, value: json, where: `${file} table, example of ${name}` });
        }
      }
      return examples;
    });
}

/** The shop's own parser of a value, where it has one beyond the table's rule. */
const SHOP_PARSERS: Partial<Record<VariableName, (value: string) => unknown>> = {
  IMAGE_DOMAINS: parseImageDomains,
  CHECKOUT_ORIGINS: (value) => parseCheckoutOrigins(value, null),
  TRUSTED_PROXIES: parseTrustedProxies,
  BUILD_RENDER_THREADS: (value) => renderThreads(value, 2),
  REVIEWS_SITE: reviewSite,
  GTM_CONTAINER_ID: (value) => {
    if (parseContainerId(value) === null) throw new Error('not a container id');
  },
  REASSURANCE: (value) => ReassuranceSchema.parse(JSON.parse(value)),
};

const envExample = envFileExamples(read('.env.example'), '.env.example');
// The README and the docs pages (the settings table lives in docs/settings.md).
const DOC_PAGES = [
  'README.md',
  ...readdirSync(new URL('../../docs', import.meta.url))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];
const readmeExamples = DOC_PAGES.flatMap((page) => {
  const text = read(page);
  return [...inlineExamples(text, page), ...tableExamples(text, page)];
});
const all = [...envExample, ...readmeExamples];

describe('the documented examples of the settings', () => {
  test('the examples are found', () => {
    expect(envExample.length).toBeGreaterThan(40);
    expect(readmeExamples.length).toBeGreaterThan(20);
    const names = new Set(all.map((example) => example.name));
    for (const name of ['STOREFRONTS', 'REASSURANCE', 'IMAGE_DOMAINS', 'TRUSTED_PROXIES']) {
      expect(names, name).toContain(name);
    }
    expect(readmeExamples.map((example) => example.name)).toContain('STOREFRONTS');
  });

  test.each(all.map((example) => [example.where, example] as const))(
    '%s parses',
    (_where, { name, value }) => {
      expect(() => parseVariable(name, value)).not.toThrow();
      const shopParser = SHOP_PARSERS[name];
      if (shopParser !== undefined) expect(() => shopParser(value)).not.toThrow();
    },
  );

  test('the documented STOREFRONTS gives each host its storefront', () => {
    const documented = envExample.find((example) => example.name === 'STOREFRONTS');
    const setting = parseVariable('STOREFRONTS', documented?.value ?? '');
    expect(setting?.default).toEqual({ name: 'Literie', channelId: 1, protocol: 'https' });
    expect(setting?.hosts['pro.literie-exemple.fr']).toEqual({
      name: 'Literie Pro',
      channelId: 2,
      protocol: 'https',
    });
  });

  test("the checks' build starts with the documented STOREFRONTS", () => {
    const documented = envExample.find((example) => example.name === 'STOREFRONTS');
    expect(TEST_ENV.STOREFRONTS).toBe(documented?.value);
  });

  test('a bad value is refused, naming the variable and the reason', () => {
    expect(() => parseVariable('STOREFRONTS', '{"shop.fr":{"name":"A"}}')).toThrow(
      /STOREFRONTS unknown key "shop\.fr": hosts go under "hosts"/,
    );
    expect(() => parseVariable('REASSURANCE', '[{"title":"A"},...]')).toThrow(
      /REASSURANCE is not valid JSON/,
    );
    expect(() => parseVariable('SESSION_SECRET', 'short')).toThrow(/SESSION_SECRET/);
  });

  test('the extraction reads what a documented line says', () => {
    expect(
      envFileExamples(
        '# PORT=4321\nHOST=0.0.0.0  # all\n# SESSION_SECRET=\n# NOT_A_SETTING=1',
        'x',
      ),
    ).toEqual([
      { name: 'PORT', value: '4321', where: 'x:1' },
      { name: 'HOST', value: '0.0.0.0', where: 'x:2' },
    ]);
  });
});
