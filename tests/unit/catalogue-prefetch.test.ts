import { describe, expect, test } from 'vitest';
import {
  connectionFromEnv,
  dropCatalogueRead,
  handedCatalogueRead,
  replaceCatalogueRead,
  startCatalogueRead,
} from '../../src/shop/loaders/catalogue-prefetch.ts';
import type { CatalogueRead } from '../../src/shop/loaders/catalogue-source.ts';

// Nothing listens there: the early read fails fast, as an unreachable upstream would.
const connection = {
  apiUrl: 'http://127.0.0.1:9/',
  storeHash: 'abc123',
  accessToken: 'token',
  channelId: 1,
};

describe('catalogue read started with the build', () => {
  test('the connection comes from the environment with astro:env defaults, or not at all', () => {
    expect(
      connectionFromEnv({ BIGCOMMERCE_STORE_HASH: 'abc', BIGCOMMERCE_ACCESS_TOKEN: 't' }),
    ).toEqual({
      apiUrl: 'https://api.bigcommerce.com',
      storeHash: 'abc',
      accessToken: 't',
      channelId: 1,
    });
    expect(connectionFromEnv({ BIGCOMMERCE_STORE_HASH: 'abc' })).toBeNull();
    expect(connectionFromEnv({ BIGCOMMERCE_ACCESS_TOKEN: 't' })).toBeNull();
    for (const channel of ['0', '-1', '1.5', 'deux', '']) {
      expect(
        connectionFromEnv({
          BIGCOMMERCE_STORE_HASH: 'abc',
          BIGCOMMERCE_ACCESS_TOKEN: 't',
          BIGCOMMERCE_CHANNEL_ID: channel,
        }),
      ).toBeNull();
    }
  });

  test('only a build on the same connection gets it', async () => {
    void startCatalogueRead(connection);
    for (const changed of [
      { storeHash: 'other' },
      { apiUrl: 'http://127.0.0.1:10/' },
      { accessToken: 'other' },
      { channelId: 2 },
    ]) {
      expect(handedCatalogueRead({ ...connection, ...changed })).toBeUndefined();
    }
    const handed = handedCatalogueRead(connection);
    expect(handed?.generation).toBe(0);
    expect(handed?.read).toBeInstanceOf(Promise);
    // Its failure reaches the build, which reads again, handed over the same way (catalogue.ts),
    // so a kept build still has the read it publishes from.
    await expect(handed?.read).rejects.toThrow();
    const again = startCatalogueRead(connection);
    again.catch(() => undefined);
    expect(handedCatalogueRead(connection)?.read).toBe(again);
    dropCatalogueRead();
    expect(handedCatalogueRead(connection)).toBeUndefined();
  });

  test('a publish hands over newer catalogues, each under a new generation', async () => {
    dropCatalogueRead();
    expect(() => replaceCatalogueRead(sampleRead(1))).toThrow(/no catalogue/);
    void startCatalogueRead(connection);
    handedCatalogueRead(connection)?.read.catch(() => undefined);
    expect(replaceCatalogueRead(sampleRead(1))).toBe(1);
    expect(replaceCatalogueRead(sampleRead(2))).toBe(2);
    const handed = handedCatalogueRead(connection);
    expect(handed?.generation).toBe(2);
    expect((await handed?.read)?.ms).toBe(2);
    // Still only for the build's own connection.
    expect(handedCatalogueRead({ ...connection, storeHash: 'other' })).toBeUndefined();
    dropCatalogueRead();
  });
});

function sampleRead(ms: number): CatalogueRead {
  return { products: [], categories: [], brands: [], ms };
}
