import { describe, expect, test } from 'vitest';
import {
  StorefrontConfigSchema,
  parseStorefrontConfig,
  resolveStorefront,
} from '../../src/lib/commerce/storefront.ts';

const config = StorefrontConfigSchema.parse({
  default: { name: 'Literie', channelId: 1, protocol: 'https' },
  'WWW.Literie.fr': { name: 'Literie', channelId: 1, protocol: 'https:' },
  'revendeurs.literie.fr': { name: 'Literie Pro', channelId: '2', protocol: 'https' },
  'localhost:4321': { name: 'Literie locale', channelId: 3, protocol: 'http' },
});

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

describe('StorefrontConfigSchema', () => {
  test.each([
    ['no default', { 'a.fr': { name: 'A', channelId: 1, protocol: 'https' } }],
    ['bad protocol', { default: { name: 'A', channelId: 1, protocol: 'ftp' } }],
    ['channel id not positive', { default: { name: 'A', channelId: 0, protocol: 'https' } }],
    ['empty name', { default: { name: ' ', channelId: 1, protocol: 'https' } }],
  ])('refuses: %s', (_case, input) => {
    expect(StorefrontConfigSchema.safeParse(input).success).toBe(false);
  });

  test('normalises protocol and channel id', () => {
    expect(config['www.literie.fr']).toEqual({ name: 'Literie', channelId: 1, protocol: 'https' });
    expect(config['revendeurs.literie.fr']?.channelId).toBe(2);
  });

  test('parses the JSON text of the variable', () => {
    expect(
      parseStorefrontConfig('{"default":{"name":"L","channelId":1,"protocol":"https"}}').default
        .name,
    ).toBe('L');
    expect(() => parseStorefrontConfig('{')).toThrow(SyntaxError);
  });
});
