import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BUILD_SETTINGS, buildSettingsKey } from '../../src/server/rebuild/build-settings.ts';
import { VARIABLES } from '../../src/shop/config/environment.ts';

const config = readFileSync(new URL('../../astro.config.mjs', import.meta.url), 'utf8');
const declared = Object.entries(VARIABLES).filter(([, variable]) => variable.astro !== undefined);

describe('BUILD_SETTINGS: what a build bakes in, so npm start rebuilds when it changes', () => {
  test('every public variable of the env schema is one', () => {
    expect(declared.length).toBeGreaterThan(20);
    const publicNames = declared.filter(([, variable]) => variable.astro?.access === 'public');
    expect(publicNames.length).toBeGreaterThan(10);
    for (const [name] of publicNames) expect(BUILD_SETTINGS).toContain(name);
  });

  test('every variable the config reads itself is one', () => {
    const call = /readEnvironment\(\[([^\]]*)\]/.exec(config)?.[1] ?? '';
    const read = [...call.matchAll(/'(\w+)'/g)].map(([, name]) => name);
    expect(read).toContain('SITE_URL');
    for (const name of read) expect(BUILD_SETTINGS).toContain(name);
  });

  test('no secret is one (a build never bakes in a secret)', () => {
    const secrets = declared
      .filter(([, variable]) => variable.astro?.access === 'secret')
      .map(([name]) => name);
    expect(secrets).toContain('SESSION_SECRET');
    for (const name of secrets) expect(BUILD_SETTINGS).not.toContain(name);
  });
});

describe('buildSettingsKey', () => {
  const setting = fc.constantFrom(...BUILD_SETTINGS);
  const env = fc.dictionary(setting, fc.string(), { maxKeys: 8 });

  test('another value, or an unset one, of any setting gives another key', () => {
    fc.assert(
      fc.property(env, setting, fc.option(fc.string(), { nil: undefined }), (base, name, value) => {
        fc.pre(base[name] !== value);
        const changed = { ...base, [name]: value };
        expect(buildSettingsKey(changed)).not.toBe(buildSettingsKey(base));
      }),
    );
  });

  test('an empty value is not an unset one', () => {
    expect(buildSettingsKey({ FEATURE_RESELLER_AREA: '' })).not.toBe(buildSettingsKey({}));
  });

  test('variables that are no build setting change nothing', () => {
    fc.assert(
      fc.property(env, fc.string(), fc.string(), (base, name, value) => {
        fc.pre(!(BUILD_SETTINGS as readonly string[]).includes(name));
        expect(buildSettingsKey({ ...base, [name]: value })).toBe(buildSettingsKey(base));
      }),
    );
  });
});
