import { describe, expect, test } from 'vitest';
import {
  parseStorefrontConfig,
  resolveStorefront,
  storefrontConfig,
} from '../../src/lib/commerce/storefront.ts';

// The documented form of `STOREFRONTS`: `{"default":{…},"hosts":{"<host>":{…}}}`.
const config = storefrontConfig(
  parseStorefrontConfig(
    JSON.stringify({
      default: { name: 'Literie', channelId: 1, protocol: 'https' },
      hosts: {
        'WWW.Literie.fr': { name: 'Literie', channelId: 1, protocol: 'https:' },
        'revendeurs.literie.fr': { name: 'Literie Pro', channelId: '2', protocol: 'https' },
        'localhost:4321': { name: 'Literie locale', channelId: 3, protocol: 'http' },
      },
    }),
  ),
  { name: 'unused', channelId: 9, protocol: 'https' },
);

describe('resolveStorefront (spec §8: no config for the host → warning and default)', () => {
  test.each([
    ['configured host', 'www.literie.fr', 'Literie', 1, true],
    ['host case ignored', 'Revendeurs.Literie.FR', 'Literie Pro', 2, true],
    ['configured host with its port', 'localhost:4321', 'Literie locale', 3, true],
    [
      'port dropped when the host is configured without it',
      'www.literie.fr:8443',
      'Literie',
      1,
      true,
    ],
    ['unknown host → default, not matched', 'autre.example.com', 'Literie', 1, false],
    ['missing host → default, not matched', undefined, 'Literie', 1, false],
    ['the word default is not a host', 'default', 'Literie', 1, false],
  ])('%s', (_case, host, name, channelId, matched) => {
    const result = resolveStorefront(host, config);
    expect(result.storefront.name).toBe(name);
    expect(result.storefront.channelId).toBe(channelId);
    expect(result.matched).toBe(matched);
  });
});

describe('parseStorefrontConfig (the STOREFRONTS setting)', () => {
  const entry = { name: 'A', channelId: 1, protocol: 'https' };

  test.each([
    ['a host at the top level (the flat form)', { 'a.fr': entry }, /unknown key "a\.fr".*"hosts"/],
    ['bad protocol', { default: { ...entry, protocol: 'ftp' } }, /entry default\.protocol/],
    ['channel id not positive', { default: { ...entry, channelId: 0 } }, /default\.channelId/],
    ['empty name', { default: { ...entry, name: ' ' } }, /default\.name/],
    [
      'a bad host entry',
      { hosts: { 'a.fr': { ...entry, channelId: 'x' } } },
      /hosts\.a\.fr\.channelId/,
    ],
    ['"default" as a host', { hosts: { default: entry } }, /hosts\.default/],
    ['not an object', [entry], /expected \{"default"/],
  ])('refuses, saying where: %s', (_case, input, message) => {
    expect(() => parseStorefrontConfig(JSON.stringify(input))).toThrow(message);
  });

  test('refuses text that is not JSON', () => {
    expect(() => parseStorefrontConfig('{')).toThrow('is not valid JSON');
  });

  test('normalises protocol, channel id and host', () => {
    expect(config['www.literie.fr']).toEqual({ name: 'Literie', channelId: 1, protocol: 'https' });
    expect(config['revendeurs.literie.fr']?.channelId).toBe(2);
  });

  test('both keys are optional: without a default, the fallback is the default', () => {
    const fallback = { name: 'Boutique', channelId: 4, protocol: 'https' as const };
    expect(storefrontConfig(parseStorefrontConfig('{}'), fallback)).toEqual({ default: fallback });
    const hosts = storefrontConfig(
      parseStorefrontConfig('{"hosts":{"b.fr":{"name":"B","channelId":2,"protocol":"http"}}}'),
      fallback,
    );
    expect(hosts).toEqual({
      default: fallback,
      'b.fr': { name: 'B', channelId: 2, protocol: 'http' },
    });
    expect(storefrontConfig(undefined, fallback)).toEqual({ default: fallback });
  });
});
