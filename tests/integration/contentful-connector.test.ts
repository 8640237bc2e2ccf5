/**
 * The Contentful connector against the sandbox's Content Delivery API (fresh databases, free
 * ports): every service function's result on the seeded space, links to unpublished drafts
 * dropped, the hostile space's links and markup neutralised, a wrong token answered with a
 * `ContentfulError` of id `AccessTokenInvalid`, and the `contentful` API service through the
 * middleware (`handleApiCall`).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { localPath } from '../../src/lib/commerce/redirect-target.ts';
import type { CategoryNode } from '../../src/lib/commerce/types.ts';
import { categoryPathLookup } from '../../src/lib/content/navigation.ts';
import { renderRichText } from '../../src/lib/content/rich-text.ts';
import { hasPlayIcon } from '../../src/lib/content/tags.ts';
import type { NavigationEntry } from '../../src/lib/content/types.ts';
import { contentfulService, visibleCategoryTree } from '../../src/shop/api/contentful-methods.ts';
import { CACHEABLE_REPLY, handleApiCall, type ApiServices } from '../../src/shop/api/handle.ts';
import {
  createBigCommerceClient,
  type BigCommerceClient,
} from '../../src/shop/connectors/bigcommerce/index.ts';
import {
  createContentfulClient,
  getContentPages,
  getNavigation,
  getNavigations,
  getSleepContents,
  getTags,
  getTechnologies,
  type ContentfulClient,
} from '../../src/shop/connectors/contentful/index.ts';
import { ContentfulError } from '../../src/shop/connectors/contentful/errors.ts';
import { sanitizeHtml } from '../../src/shop/html/sanitize-html.ts';
import {
  CONTENTFUL_IDS,
  LEGAL_SLUGS,
  UNPUBLISHED_PAGE,
  UNPUBLISHED_SLEEP,
} from '@literie/sandbox/fixtures';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';
import { SANDBOX_CONTENTFUL } from '../../scripts/lib/upstream.ts';

let sandbox: TestSandbox;
let client: ContentfulClient;
let commerce: BigCommerceClient;
let tree: CategoryNode[];
let categoryPath: (id: number) => string | null;
/** Delivery API URLs the connector called. */
let calls: string[] = [];

function contentfulFor(target: TestSandbox, accessToken = target.contentful.deliveryToken) {
  return createContentfulClient({
    apiUrl: `${target.url}/contentful`,
    spaceId: target.contentful.spaceId,
    environment: target.contentful.environment,
    accessToken,
    fetch: (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      calls.push(request.url);
      return fetch(request);
    },
  });
}

/** A raw Delivery API reply (to see what the connector was given). */
async function cda(path: string): Promise<Record<string, unknown>> {
  const { spaceId, environment, deliveryToken } = sandbox.contentful;
  const response = await fetch(
    `${sandbox.url}/contentful/spaces/${spaceId}/environments/${environment}${path}`,
    {
      headers: { Authorization: `Bearer ${deliveryToken}` },
    },
  );
  return (await response.json()) as Record<string, unknown>;
}

function flatten(entries: readonly NavigationEntry[]): NavigationEntry[] {
  return entries.flatMap((entry) => [entry, ...flatten(entry.childrens)]);
}

/** Every link of a navigation is a clean local path or an external http(s) URL. */
function expectSafeLinks(entries: readonly NavigationEntry[]) {
  for (const entry of flatten(entries)) {
    if (entry.type === 'group') {
      expect(entry.url).toBeNull();
      expect(entry.childrens.length).toBeGreaterThan(0);
    } else if (entry.isExternalLink) {
      const url = new URL(entry.url ?? '');
      expect(['http:', 'https:']).toContain(url.protocol);
      expect(url.username + url.password).toBe('');
      expect(entry.type).toBe('callToActionExternal');
    } else {
      expect(localPath(entry.url)).toBe(entry.url);
    }
  }
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = contentfulFor(sandbox);
  commerce = createBigCommerceClient({
    apiUrl: sandbox.url,
    storeHash: sandbox.storeHash,
    accessToken: sandbox.token,
    channelId: 1,
  });
  tree = await visibleCategoryTree(commerce);
  categoryPath = categoryPathLookup(tree);
});

afterAll(async () => {
  await sandbox.close();
});

describe('the sandbox', () => {
  test('serves the space and tokens scripts/lib/upstream.ts gives the shop', () => {
    expect(sandbox.contentful).toEqual({ ...SANDBOX_CONTENTFUL });
  });
});

describe('tags', () => {
  test('public tags, split at the first colon', async () => {
    const tags = await getTags(client);
    expect(tags).toContainEqual({
      id: 'formatPodcast',
      label: 'format:podcast',
      type: 'format',
      name: 'podcast',
    });
    expect(tags).toContainEqual({
      id: 'formatVideo',
      label: 'format:video',
      type: 'format',
      name: 'video',
    });
    expect(tags.find((tag) => tag.id === 'coupDeCoeur')).toMatchObject({
      type: null,
      name: 'Coup de cœur',
    });
    expect(tags.filter((tag) => tag.type === 'theme').length).toBeGreaterThan(1);
    expect(tags.map((tag) => tag.id)).not.toContain('relectureInterne');
    expect(new Set(tags.map((tag) => tag.id)).size).toBe(tags.length);
  });
});

describe('navigations', () => {
  test('Main Navigation: the root category pages with their pushes, paths from the tree; unknown categories dropped', async () => {
    calls = [];
    const main = await getNavigation(client, 'Main Navigation', { categoryPath });
    const query = new URL(calls[0] ?? '').searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      content_type: 'navigation',
      'fields.identifier': 'Main Navigation',
      limit: '1',
      include: '10',
    });
    expectSafeLinks(main);
    const categoryPages = main.filter((entry) => entry.type === 'categoryPage');
    expect(categoryPages.length).toBe(tree.length);
    for (const entry of categoryPages) {
      expect(entry.url).toBe(categoryPath(entry.categoryId ?? 0));
      expect(tree.map((node) => node.id)).toContain(entry.categoryId);
    }
    expect(
      categoryPages.filter((entry) => entry.titlePush !== null && entry.contentPush !== null)
        .length,
    ).toBeGreaterThan(3);
    expect(main.some((entry) => entry.type === 'page' && entry.url === '/les-yeux-fermes')).toBe(
      true,
    );
    // The push's rich text renders (links to entries resolved to shop paths).
    const push = categoryPages.find((entry) => entry.label === 'Matelas')?.contentPush;
    expect(renderRichText(push)).toContain(
      'href="/les-yeux-fermes/bien-choisir-son-matelas-le-guide-complet"',
    );
  });

  test('without category paths, category pages are dropped', async () => {
    const main = await getNavigation(client, 'Main Navigation', { categoryPath: () => null });
    expect(main.some((entry) => entry.type === 'categoryPage')).toBe(false);
    expect(main.length).toBeGreaterThan(0);
  });

  test('the three named navigations; every link type; links to drafts dropped', async () => {
    const navigations = await getNavigations(client, { categoryPath });
    const all = flatten([...navigations.main, ...navigations.sidebar, ...navigations.footer]);
    expectSafeLinks(all);
    expect(navigations.sidebar.length).toBeGreaterThan(3);
    expect(navigations.footer.map((group) => group.label)).toEqual([
      'Informations légales',
      'Services',
      'Literie Lumière',
    ]);
    const types = new Set(all.map((entry) => entry.type));
    for (const type of [
      'page',
      'brandCorner',
      'categoryPage',
      'callToActionExternal',
      'callToActionInternal',
      'callToActionFree',
      'contentPage',
      'group',
    ]) {
      expect(types).toContain(type);
    }
    // The Footer links the unpublished draft: the Delivery API says notResolvable, the entry is gone.
    const raw = await cda(
      '/entries?content_type=navigation&fields.identifier=Footer&limit=1&include=10',
    );
    expect(JSON.stringify(raw.errors)).toContain(CONTENTFUL_IDS.unpublishedPage);
    expect(all.map((entry) => entry.key)).not.toContain(CONTENTFUL_IDS.unpublishedPage);
    expect(all.map((entry) => entry.url)).not.toContain(`/${UNPUBLISHED_PAGE.slug}`);
    const legal = navigations.footer[0]?.childrens.map((entry) => entry.url);
    expect(legal).toEqual(LEGAL_SLUGS.map((slug) => `/${slug}`));
  });

  test('an unknown identifier gives no entries', async () => {
    await expect(getNavigation(client, 'Nope', { categoryPath })).resolves.toEqual([]);
  });
});

describe('sleep content', () => {
  test('every entry, newest first, with assets, tags and related entries; drafts left out', async () => {
    calls = [];
    const entries = await getSleepContents(client);
    expect(calls.some((url) => new URL(url).searchParams.get('limit') === '1000')).toBe(true);
    expect(entries.length).toBeGreaterThan(20);
    const dates = entries.map((entry) => Date.parse(entry.publishedAt));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(new Set(entries.map((entry) => entry.slug)).size).toBe(entries.length);
    expect(entries.map((entry) => entry.slug)).not.toContain(UNPUBLISHED_SLEEP.slug);
    for (const entry of entries) {
      expect(entry.title).not.toBe('');
      for (const asset of [entry.image, entry.audio, entry.video]) {
        if (asset !== null)
          expect(asset.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/(images\/ctf|ctf-assets)\//);
      }
      for (const related of entry.related) {
        expect(related.related).toEqual([]);
        expect(related.slug).not.toBe(UNPUBLISHED_SLEEP.slug);
      }
      expect(entry.tags.map((tag) => tag.id)).not.toContain('relectureInterne');
    }
    const podcast = entries.find((entry) => entry.tags.some((tag) => tag.id === 'formatPodcast'));
    expect(podcast && hasPlayIcon(podcast.tags)).toBe(true);
    expect(podcast?.audio?.contentType).toMatch(/^audio\//);
    const article = entries.find((entry) => entry.tags.some((tag) => tag.id === 'formatArticle'));
    expect(article && hasPlayIcon(article.tags)).toBe(false);
    expect(entries.some((entry) => entry.episode !== null && entry.duration !== null)).toBe(true);
    expect(entries.some((entry) => entry.related.length > 0)).toBe(true);
    expect(entries.some((entry) => entry.image !== null && entry.image.width !== null)).toBe(true);
    expect(() => JSON.stringify(entries)).not.toThrow();
  });
});

describe('content pages', () => {
  test('every published page, the legal ones included; bodies render', async () => {
    const pages = await getContentPages(client);
    const slugs = pages.map((page) => page.slug);
    for (const slug of [...LEGAL_SLUGS, 'aide', 'contact', 'devenir-affilie', 'aide/retours'])
      expect(slugs).toContain(slug);
    expect(slugs).not.toContain(UNPUBLISHED_PAGE.slug);
    for (const page of pages) {
      expect(page.title).not.toBe('');
      const html = renderRichText(page.body);
      expect(html).not.toBe('');
      expect(sanitizeHtml(html)).toBe(html);
    }
  });
});

describe('technologies', () => {
  test('all, or by name in the order asked', async () => {
    const all = await getTechnologies(client);
    expect(all.length).toBeGreaterThan(1);
    const [a, b] = all;
    const names = [b?.name ?? '', 'Inconnue', a?.name ?? ''];
    calls = [];
    const some = await getTechnologies(client, names);
    expect(some.map((technology) => technology.name)).toEqual([b?.name, a?.name]);
    expect(new URL(calls[0] ?? '').searchParams.get('fields.name[in]')).toBe(names.join(','));
    expect(some[0]?.title).not.toBe('');
    expect(renderRichText(some[0]?.description)).not.toBe('');
    await expect(getTechnologies(client, [])).resolves.toEqual([]);
  });
});

describe('errors', () => {
  test('a wrong token: ContentfulError 401 AccessTokenInvalid, without the token', async () => {
    const wrong = contentfulFor(sandbox, 'wrong-token-value');
    const caught = await getTags(wrong).catch((error: unknown) => error);
    expect(caught).toBeInstanceOf(ContentfulError);
    expect(caught).toMatchObject({ status: 401, code: 'UNAUTHORIZED', id: 'AccessTokenInvalid' });
    expect((caught as Error).message).not.toContain('wrong-token-value');
  });
});

describe('hostile space', () => {
  let hostile: TestSandbox;
  beforeAll(async () => {
    hostile = await startTestSandbox({ hostile: true });
  });
  afterAll(async () => {
    await hostile.close();
  });

  test('navigation links and rich text of hostile entries are neutralised', async () => {
    const hostileClient = contentfulFor(hostile);
    const footer = await getNavigation(hostileClient, 'Footer', { categoryPath: () => null });
    expectSafeLinks(footer);
    expect(JSON.stringify(footer)).not.toMatch(/javascript:|vbscript:|data:text/i);
    // Read the way the pages read them: the lists, then the entry by its slug.
    const pages = [
      (await getContentPages(hostileClient)).find((page) => page.slug === 'page-piegee'),
      (await getSleepContents(hostileClient)).find((entry) => entry.slug === 'episode-piege'),
    ];
    for (const page of pages) {
      expect(page).toBeDefined();
      const html = renderRichText(page?.body);
      expect(html).not.toBe('');
      // Markup in text is escaped (text holds no `<`): only the tags hold attributes.
      expect(html).not.toMatch(/<(script|iframe|svg|img src=x)/i);
      for (const [tag] of html.matchAll(/<[^>]*>/g)) {
        expect(tag).not.toMatch(/\son\w+=|javascript:|vbscript:|data:|srcdoc/i);
      }
      // The sanitiser keeps it all, only writing the renderer's `&quot;` and `&#39;` in text as
      // `"` and `'` (no attribute here holds either: URLs escape quotes).
      expect(sanitizeHtml(html)).toBe(html.replaceAll('&quot;', '"').replaceAll('&#39;', "'"));
    }
  });
});

describe('API service', () => {
  let services: ApiServices;
  let broken: ApiServices;
  beforeAll(() => {
    services = {
      contentful: contentfulService({ client: () => client, commerce: () => commerce }),
    };
    broken = {
      contentful: contentfulService({
        client: () => contentfulFor(sandbox, 'wrong-token'),
        commerce: () => commerce,
      }),
    };
  });

  async function call(method: string, args: unknown, target = services) {
    const request = new Request(`http://127.0.0.1/api/contentful/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(args),
    });
    const response = await handleApiCall(request, { service: 'contentful', method }, target);
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>,
    };
  }

  test('getTags', async () => {
    const reply = await call('getTags', []);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe(CACHEABLE_REPLY);
    expect(reply.body.data).toEqual(await getTags(client));
  });

  test('getNavigation of a named navigation, category paths from the storefront', async () => {
    const reply = await call('getNavigation', ['Main Navigation']);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe(CACHEABLE_REPLY);
    expect(reply.body.data).toEqual(
      await getNavigation(client, 'Main Navigation', { categoryPath }),
    );
  });

  test.each([[[]], [['Other']], [[42]], [['Footer', 'x']], [{}]])(
    'getNavigation(%j) is refused',
    async (args) => {
      const reply = await call('getNavigation', args);
      expect([400, 500]).toContain(reply.status);
      expect(reply.status).toBe(400);
    },
  );

  test('getTechnologies, all or by names; bounded', async () => {
    const all = await call('getTechnologies', []);
    expect(all.status).toBe(200);
    const names = (all.body.data as { name: string }[]).map((technology) => technology.name);
    const some = await call('getTechnologies', [[names[1], names[0]]]);
    expect((some.body.data as { name: string }[]).map((technology) => technology.name)).toEqual([
      names[1],
      names[0],
    ]);
    expect(
      (await call('getTechnologies', [Array.from({ length: 51 }, (_, i) => `n${i}`)])).status,
    ).toBe(400);
    expect((await call('getTechnologies', [['']])).status).toBe(400);
    expect((await call('getTechnologies', ['Ressorts'])).status).toBe(400);
  });

  test('a content service that refuses answers 502 with the upstream message key', async () => {
    const reply = await call('getTags', [], broken);
    expect(reply.status).toBe(502);
    expect(reply.body).toEqual({ message: 'error.upstreamUnavailable', statusCode: 502 });
  });
});
