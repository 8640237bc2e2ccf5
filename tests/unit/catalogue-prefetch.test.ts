import { describe, expect, test } from 'vitest';
import {
  connectionFromEnv,
  startCatalogueRead,
  takeCatalogueRead,
} from '../../src/lib/server/loaders/catalogue-prefetch.ts';

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

  test('only a build on the same connection takes it, and only once', async () => {
    startCatalogueRead(connection);
    expect(takeCatalogueRead({ ...connection, storeHash: 'other' })).toBeUndefined();
    // The mismatch dropped it: a later take on the right connection reads by itself.
    expect(takeCatalogueRead(connection)).toBeUndefined();

    startCatalogueRead(connection);
    for (const changed of [
      { apiUrl: 'http://127.0.0.1:10/' },
      { accessToken: 'other' },
      { channelId: 2 },
    ]) {
      startCatalogueRead(connection);
      expect(takeCatalogueRead({ ...connection, ...changed })).toBeUndefined();
    }
    startCatalogueRead(connection);
    const read = takeCatalogueRead(connection);
    expect(read).toBeInstanceOf(Promise);
    expect(takeCatalogueRead(connection)).toBeUndefined();
    // Its failure reaches the taker, who reads again (catalogue.ts).
    await expect(read).rejects.toThrow();
  });
});
