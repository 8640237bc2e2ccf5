/**
 * A kept build's publish (src/server/publish/publisher-loop.ts `handleRequest` with the real
 * publish-data.ts and publish-decide.ts, pages recorded instead of rendered) against the
 * sandbox with its fault injection: while BigCommerce answers 503, or accepts the connection
 * and never answers, the publish of a rename fails as transient, naming the failing call, and
 * leaves the data the pages render from as it was (`dataChanged: false`): the supervisor keeps
 * the kept build and asks again (tests/integration/rebuild-retry.test.ts). Once the upstream
 * answers, the same request publishes the rename: its new page, and the old one removed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { getProductById } from '../../src/shop/connectors/bigcommerce/index.ts';
import {
  createContentfulClient,
  getNavigations,
  getSiteContent,
} from '../../src/shop/connectors/contentful/index.ts';
import { createBigCommerceClient } from '../../src/shop/connectors/bigcommerce/index.ts';
import {
  connectionFromEnv,
  dropCatalogueRead,
  handedCatalogueRead,
  startCatalogueRead,
} from '../../src/shop/loaders/catalogue-prefetch.ts';
import { handOver } from '../../src/shop/loaders/handoff.ts';
import { installFetchDeadlines } from '../../src/server/fetch-deadlines.ts';
import type { FaultSpec } from '@literie/sandbox/faults';
import type { PagePublisher } from '../../src/server/publish/page-publisher.ts';
import { createPublishData } from '../../src/server/publish/publish-data.ts';
import { decide } from '../../src/server/publish/publish-decide.ts';
import {
  handleRequest,
  type PublisherLoopOptions,
} from '../../src/server/publish/publisher-loop.ts';
import { sandboxApi, startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';

let sandbox: TestSandbox;
let env: Record<string, string>;
let options: PublisherLoopOptions;
const published: { render: string[]; remove: string[] }[] = [];
let restoreFetch: (() => void) | null = null;

async function fault(spec: FaultSpec): Promise<void> {
  const response = await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'X-Auth-Token': sandbox.token, 'Content-Type': 'application/json' },
    body: JSON.stringify(spec),
  });
  expect(response.status).toBe(201);
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  env = {
    BIGCOMMERCE_API_URL: sandbox.url,
    BIGCOMMERCE_STORE_HASH: sandbox.storeHash,
    BIGCOMMERCE_ACCESS_TOKEN: sandbox.token,
    CONTENTFUL_API_URL: `${sandbox.url}/contentful`,
    CONTENTFUL_SPACE_ID: sandbox.contentful.spaceId,
    CONTENTFUL_ACCESS_TOKEN: sandbox.contentful.deliveryToken,
  };
  const connection = connectionFromEnv(env);
  if (connection === null) throw new Error('no connection');
  // What the build hands its kept build: its catalogue read, content and menus.
  await startCatalogueRead(connection);
  const content = createContentfulClient({
    apiUrl: env.CONTENTFUL_API_URL ?? '',
    spaceId: sandbox.contentful.spaceId,
    accessToken: sandbox.contentful.deliveryToken,
  });
  handOver('site-content', await getSiteContent(content));
  handOver('navigations', await getNavigations(content, { categoryPath: () => null }));
  const publisher: PagePublisher = {
    routeFor: () => null,
    fileOf: () => '',
    dataChanged: () => undefined,
    publish: (change) => {
      published.push({ render: [...change.render], remove: [...change.remove] });
      return Promise.resolve({
        written: [...change.render],
        removed: [...change.remove],
        pictures: [],
        refused: [],
        ms: 1,
      });
    },
  };
  options = {
    publisher,
    data: createPublishData(env),
    decide,
    send: () => undefined,
    pages: new Set(),
    sitemaps: () => Promise.resolve(),
    listings: null,
  };
});

afterEach(async () => {
  restoreFetch?.();
  restoreFetch = null;
  await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'DELETE',
    headers: { 'X-Auth-Token': sandbox.token },
  });
});

afterAll(async () => {
  dropCatalogueRead();
  await sandbox.close();
});

describe('a publish while the upstream fails', () => {
  test('503, then a stalled upstream: transient failures, data unchanged; then the rename is published', async () => {
    const connection = connectionFromEnv(env);
    if (connection === null) throw new Error('no connection');
    const read = await handedCatalogueRead(connection)?.read;
    const product = read?.products.find((each) => each.isVisible);
    if (!product) throw new Error('no visible product in the catalogue');
    const oldPath = productPath(product);
    const name = `${product.name} renommé`;
    const api = sandboxApi(sandbox);
    expect((await api('PUT', `/v3/catalog/products/${String(product.id)}`, { name })).status).toBe(
      200,
    );
    const request = {
      type: 'publish' as const,
      id: 1,
      edits: [{ resource: 'product' as const, id: product.id }],
    };
    const generation = handedCatalogueRead(connection)?.generation;
    const products = `/stores/${sandbox.storeHash}/v3/catalog/products`;

    await fault({ match: products, status: 503 });
    const unavailable = await handleRequest(request, options, { sitemaps: false });
    expect(unavailable).toMatchObject({
      type: 'publish-failed',
      id: 1,
      transient: true,
      dataChanged: false,
    });
    expect(unavailable.type === 'publish-failed' && unavailable.error).toMatch(
      /GET v3\/catalog\/products/,
    );

    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'DELETE',
      headers: { 'X-Auth-Token': sandbox.token },
    });
    await fault({ match: products, down: 'hang' });
    // Every fetch of the build has its deadline (a short one here).
    restoreFetch = installFetchDeadlines(300);
    const stalled = await handleRequest(request, options, { sitemaps: false });
    expect(stalled).toMatchObject({ type: 'publish-failed', transient: true, dataChanged: false });
    expect(stalled.type === 'publish-failed' && stalled.error).toMatch(/GET v3\/catalog\/products/);
    // Nothing was handed to the pages meanwhile.
    expect(handedCatalogueRead(connection)?.generation).toBe(generation);
    expect(published).toEqual([]);

    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'DELETE',
      headers: { 'X-Auth-Token': sandbox.token },
    });
    // The upstream answers again: the publish runs under the server's own deadlines.
    restoreFetch();
    restoreFetch = null;
    const afterReply = { sitemaps: false };
    const done = await handleRequest(request, options, afterReply);
    expect(done).toMatchObject({ type: 'published', id: 1 });
    const newPath = productPath({ id: product.id, name });
    expect(published[0]?.render).toContain(newPath);
    expect([...(published[0]?.remove ?? []), ...(published[0]?.render ?? [])]).toContain(oldPath);
    // A page's address changed: the sitemaps are written again once the reply is sent.
    expect(afterReply.sitemaps).toBe(true);
    const live = await getProductById(
      createBigCommerceClient({
        apiUrl: sandbox.url,
        storeHash: sandbox.storeHash,
        accessToken: sandbox.token,
      }),
      product.id,
    );
    expect(live?.name).toBe(name);
  }, 60_000);
});
