/**
 * The Contentful connector's parsing and link resolution, on replies shaped like the Content
 * Delivery API's (Contentful's documentation): links resolved over items and includes, unresolvable
 * links (in `errors` or absent) dropped, cycles, protocol-relative asset URLs, malformed items
 * skipped; then the mapping to the content domain types.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { navigationEntries } from '../../src/lib/content/navigation.ts';
import {
  tagsOf,
  toContentAsset,
  toContentPage,
  toSleepContent,
  toTechnology,
} from '../../src/shop/connectors/contentful/entries.ts';
import {
  absoluteAssetUrl,
  resolveCollection,
  type ResolvedEntry,
} from '../../src/shop/connectors/contentful/resolve.ts';
import {
  CollectionSchema,
  EntrySchema,
  ErrorReplySchema,
  RichTextDocumentSchema,
} from '../../src/shop/connectors/contentful/schemas.ts';
import { toContentTag } from '../../src/lib/content/tags.ts';

const link = (linkType: 'Entry' | 'Asset', id: string) => ({ sys: { type: 'Link', linkType, id } });
const tagLink = (id: string) => ({ sys: { type: 'Link', linkType: 'Tag', id } });

function entry(
  id: string,
  contentType: string,
  fields: Record<string, unknown>,
  tags: string[] = [],
) {
  return {
    metadata: { tags: tags.map(tagLink) },
    sys: {
      space: { sys: { type: 'Link', linkType: 'Space', id: 'sandbox' } },
      id,
      type: 'Entry',
      createdAt: '2024-01-10T10:00:00.000Z',
      updatedAt: '2024-02-10T10:00:00.000Z',
      environment: { sys: { id: 'master', type: 'Link', linkType: 'Environment' } },
      revision: 1,
      contentType: { sys: { type: 'Link', linkType: 'ContentType', id: contentType } },
      locale: 'fr',
    },
    fields,
  };
}

function asset(id: string, url: string, contentType = 'image/jpeg') {
  return {
    metadata: { tags: [] },
    sys: { id, type: 'Asset', createdAt: '2024-01-01T00:00:00.000Z', locale: 'fr' },
    fields: {
      title: 'Chambre calme',
      description: 'Une chambre',
      file: {
        url,
        details: { size: 1234, image: { width: 1200, height: 800 } },
        fileName: 'chambre.jpg',
        contentType,
      },
    },
  };
}

function collection(
  items: unknown[],
  includes: { Entry?: unknown[]; Asset?: unknown[] } = {},
  errors?: unknown[],
) {
  return CollectionSchema.parse({
    sys: { type: 'Array' },
    total: items.length,
    skip: 0,
    limit: 100,
    items,
    includes,
    ...(errors === undefined ? {} : { errors }),
  });
}

const notResolvable = (id: string, linkType = 'Entry') => ({
  sys: { id: 'notResolvable', type: 'error' },
  details: { type: 'Link', linkType, id },
});

const HTTPS = { scheme: 'https:' } as const;

describe('schemas', () => {
  test('a collection needs its list of items', () => {
    expect(
      CollectionSchema.safeParse({ sys: { type: 'Array' }, total: 0, skip: 0, limit: 1, items: {} })
        .success,
    ).toBe(false);
    expect(CollectionSchema.safeParse({ sys: { type: 'Error', id: 'NotFound' } }).success).toBe(
      false,
    );
  });
  test('an entry keeps unknown fields; malformed tag links are dropped', () => {
    const parsed = EntrySchema.parse({
      ...entry('a', 'page', { title: 'T', extra: { x: 1 } }),
      metadata: { tags: [tagLink('formatPodcast'), { sys: { id: 'x' } }, 'junk'] },
    });
    expect(parsed.fields).toEqual({ title: 'T', extra: { x: 1 } });
    expect(parsed.metadata.tags).toEqual([tagLink('formatPodcast')]);
    expect(EntrySchema.safeParse({ sys: { id: 'a', type: 'Entry' }, fields: {} }).success).toBe(
      false,
    );
  });
  test('error replies', () => {
    expect(
      ErrorReplySchema.parse({
        requestId: 'r1',
        message: 'The access token you sent could not be found or is invalid.',
        sys: { type: 'Error', id: 'AccessTokenInvalid' },
      }).sys.id,
    ).toBe('AccessTokenInvalid');
  });
  test('rich text: unknown node types are kept and typed', () => {
    const document = {
      nodeType: 'document',
      data: {},
      content: [
        {
          nodeType: 'future-node',
          data: {},
          content: [{ nodeType: 'text', value: 'x', marks: [], data: {} }],
        },
      ],
    };
    expect(RichTextDocumentSchema.parse(document)).toEqual(document);
    expect(
      RichTextDocumentSchema.safeParse({ nodeType: 'paragraph', data: {}, content: [] }).success,
    ).toBe(false);
  });
});

describe('resolveCollection', () => {
  test('links resolve through items and includes, at any depth (rich text included)', () => {
    const body = {
      nodeType: 'document',
      data: {},
      content: [
        { nodeType: 'embedded-asset-block', data: { target: link('Asset', 'img') }, content: [] },
        {
          nodeType: 'paragraph',
          data: {},
          content: [
            { nodeType: 'entry-hyperlink', data: { target: link('Entry', 'cgv') }, content: [] },
          ],
        },
      ],
    };
    const reply = collection(
      [
        entry('a', 'contentPage', { title: 'A', slug: 'a', body }),
        entry('cgv', 'contentPage', { title: 'CGV', slug: 'cgv' }),
      ],
      { Asset: [asset('img', '//images.ctfassets.net/s/img/h/chambre.jpg')] },
    );
    const [a, cgv] = resolveCollection(reply, HTTPS);
    const content = (
      a?.fields.body as {
        content: { data: { target?: unknown }; content: { data: { target?: unknown } }[] }[];
      }
    ).content;
    expect(content[0]?.data.target).toMatchObject({
      sys: { id: 'img' },
      fields: { file: { url: 'https://images.ctfassets.net/s/img/h/chambre.jpg' } },
    });
    expect(content[1]?.content[0]?.data.target).toBe(cgv);
  });

  test('unresolvable links are dropped, from arrays and properties, without a crash', () => {
    const reply = collection(
      [
        entry('nav', 'navigation', {
          identifier: 'Footer',
          childrens: [
            link('Entry', 'cgv'),
            link('Entry', 'draft'),
            link('Entry', 'missing'),
            link('Asset', 'gone'),
          ],
          image: link('Asset', 'gone'),
        }),
      ],
      { Entry: [entry('cgv', 'contentPage', { title: 'CGV', slug: 'cgv' })] },
      [notResolvable('draft'), notResolvable('gone', 'Asset')],
    );
    const [nav] = resolveCollection(reply, HTTPS);
    expect((nav?.fields.childrens as ResolvedEntry[]).map((c) => c.sys.id)).toEqual(['cgv']);
    expect(nav?.fields).not.toHaveProperty('image');
  });

  test('cycles resolve to shared objects, in bounded time', () => {
    const reply = collection(
      [entry('a', 'navigation', { title: 'A', childrens: [link('Entry', 'b')] })],
      {
        Entry: [
          entry('b', 'navigation', {
            title: 'B',
            childrens: [link('Entry', 'a'), link('Entry', 'b')],
          }),
        ],
      },
    );
    const [a] = resolveCollection(reply, HTTPS);
    const b = (a?.fields.childrens as ResolvedEntry[])[0];
    expect((b?.fields.childrens as ResolvedEntry[])[0]).toBe(a);
    expect((b?.fields.childrens as ResolvedEntry[])[1]).toBe(b);
    // Mapped to the domain, the graph is a finite tree.
    expect(() => JSON.stringify(navigationEntries(a, { categoryPath: () => null }))).not.toThrow();
  });

  test('malformed items, includes and deep values are skipped', () => {
    let deep: unknown = link('Entry', 'b');
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const reply = collection(
      [
        'junk',
        null,
        { sys: { id: 'x' } },
        entry('a', 'page', { title: 'A', deep, ok: [link('Entry', 'b')] }),
      ],
      {
        Entry: [42, { sys: {} }, entry('b', 'page', { title: 'B' })],
        Asset: ['junk', { sys: { id: 'z', type: 'Asset' }, fields: { file: { url: 7 } } }],
      },
    );
    const items = resolveCollection(reply, HTTPS);
    expect(items.map((e) => e.sys.id)).toEqual(['a']);
    // Nesting past the bound is cut: the link 10,000 levels down is not followed.
    expect(JSON.stringify(items[0]?.fields.deep)).not.toContain('Entry');
    expect((items[0]?.fields.ok as ResolvedEntry[])[0]?.sys.id).toBe('b');
  });

  test('links of other types (tags, content types) are kept as data', () => {
    const reply = collection([
      entry('a', 'page', {
        title: 'A',
        space: { sys: { type: 'Link', linkType: 'Space', id: 's' } },
      }),
    ]);
    expect(resolveCollection(reply, HTTPS)[0]?.fields.space).toEqual({
      sys: { type: 'Link', linkType: 'Space', id: 's' },
    });
  });

  test('absoluteAssetUrl', () => {
    expect(absoluteAssetUrl('//images.ctfassets.net/a.jpg', 'https:')).toBe(
      'https://images.ctfassets.net/a.jpg',
    );
    expect(absoluteAssetUrl('//127.0.0.1:4000/images/ctf/a.jpg', 'http:')).toBe(
      'http://127.0.0.1:4000/images/ctf/a.jpg',
    );
    expect(absoluteAssetUrl('https://x.example/a.jpg', 'http:')).toBe('https://x.example/a.jpg');
  });

  test('any reply of links among a few entries resolves without a crash, links to absent ids dropped', () => {
    const ids = ['a', 'b', 'c', 'd'];
    const value = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { maxDepth: 4 },
        fc.constantFrom(...ids).map((id) => link('Entry', id)),
        fc.constantFrom('x', 'y').map((id) => link('Entry', id)),
        fc.string(),
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(fc.constantFrom('k', 'target', 'sys', 'fields'), tie('v'), { maxKeys: 3 }),
      ),
    })).v;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...ids), value), { maxLength: 6 }), (pairs) => {
        const entries = pairs.map(([id, v]) =>
          entry(id, 'navigation', { title: id, childrens: [v], v }),
        );
        const items = resolveCollection(
          collection(entries.slice(0, 2), { Entry: entries.slice(2) }),
          HTTPS,
        );
        const json = (value: unknown, seen = new Set<unknown>()): void => {
          if (typeof value !== 'object' || value === null || seen.has(value)) return;
          seen.add(value);
          if (!Array.isArray(value)) {
            const sys = (value as { sys?: { type?: unknown; id?: unknown } }).sys;
            if (sys?.type === 'Link') expect(['x', 'y']).not.toContain(sys.id);
          }
          for (const item of Object.values(value)) json(item, seen);
        };
        json(items);
        navigationEntries(items[0], { categoryPath: () => '/c/x' });
      }),
    );
  });
});

describe('mapping to the domain', () => {
  const tags = new Map(
    [
      toContentTag('formatPodcast', 'format:podcast'),
      toContentTag('themeRespiration', 'theme:respiration'),
    ].map((t) => [t.id, t]),
  );
  const sleep = (id: string, fields: Record<string, unknown>, tagIds: string[] = []) =>
    entry(
      id,
      'sleepContent',
      { title: `T${id}`, slug: `s-${id}`, excerpt: 'E', publishedAt: '2024-03-01', ...fields },
      tagIds,
    );

  test('sleep content with assets, tags, related one level deep', () => {
    const reply = collection(
      [
        sleep(
          'a',
          {
            episode: 3,
            duration: 12,
            image: link('Asset', 'img'),
            audio: link('Asset', 'mp3'),
            related: [
              link('Entry', 'b'),
              link('Entry', 'a'),
              link('Entry', 'gone'),
              link('Entry', 'b'),
            ],
            body: {
              nodeType: 'document',
              data: {},
              content: [
                {
                  nodeType: 'paragraph',
                  data: {},
                  content: [{ nodeType: 'text', value: 'Bonsoir', marks: [], data: {} }],
                },
              ],
            },
          },
          ['formatPodcast', 'unknownTag', 'formatPodcast'],
        ),
      ],
      {
        Entry: [sleep('b', { related: [link('Entry', 'a')] })],
        Asset: [
          asset('img', '//images.ctfassets.net/s/img/h/c.jpg'),
          asset('mp3', '//assets.ctfassets.net/s/mp3/h/e.mp3', 'audio/mpeg'),
        ],
      },
      [notResolvable('gone')],
    );
    const [a] = resolveCollection(reply, HTTPS);
    const mapped = a && toSleepContent(a, tags);
    expect(mapped).toMatchObject({
      id: 'a',
      title: 'Ta',
      slug: 's-a',
      excerpt: 'E',
      episode: 3,
      duration: 12,
      image: {
        id: 'img',
        url: 'https://images.ctfassets.net/s/img/h/c.jpg',
        width: 1200,
        height: 800,
        contentType: 'image/jpeg',
      },
      audio: {
        id: 'mp3',
        url: 'https://assets.ctfassets.net/s/mp3/h/e.mp3',
        contentType: 'audio/mpeg',
      },
      video: null,
      tags: [{ id: 'formatPodcast', type: 'format', name: 'podcast' }],
      publishedAt: '2024-03-01',
    });
    expect(mapped?.related.map((r) => [r.id, r.related])).toEqual([['b', []]]);
    expect(mapped?.body?.content[0]?.nodeType).toBe('paragraph');
    expect(() => JSON.stringify(mapped)).not.toThrow();
  });

  test.each([
    ['no title', { title: ' ' }],
    ['no slug', { slug: '' }],
    ['a slug of two segments', { slug: 'a/b' }],
  ])('sleep content left out: %s', (_name, fields) => {
    const [item] = resolveCollection(collection([sleep('a', fields)]), HTTPS);
    expect(item && toSleepContent(item, tags)).toBeNull();
  });

  test('sleep content without publishedAt takes its creation date', () => {
    const [item] = resolveCollection(collection([sleep('a', { publishedAt: undefined })]), HTTPS);
    expect(item && toSleepContent(item, tags)?.publishedAt).toBe('2024-01-10T10:00:00.000Z');
  });

  test('tagsOf keeps known public tags in order', () => {
    const [item] = resolveCollection(
      collection([sleep('a', {}, ['themeRespiration', 'formatPodcast', 'private'])]),
      HTTPS,
    );
    expect(item && tagsOf(item, tags).map((t) => t.id)).toEqual([
      'themeRespiration',
      'formatPodcast',
    ]);
  });

  test('content pages', () => {
    const [page, bad] = resolveCollection(
      collection([
        entry('p', 'contentPage', {
          title: 'Livraison',
          slug: '/aide/livraison/',
          description: ' Meta ',
          body: { nodeType: 'document', data: {}, content: [] },
        }),
        entry('q', 'contentPage', { title: 'X', slug: '../x' }),
      ]),
      HTTPS,
    );
    expect(page && toContentPage(page)).toEqual({
      id: 'p',
      title: 'Livraison',
      slug: 'aide/livraison',
      description: 'Meta',
      body: null,
      updatedAt: '2024-02-10T10:00:00.000Z',
    });
    expect(bad && toContentPage(bad)).toBeNull();
  });

  test('technologies', () => {
    const [tech, other, nameless] = resolveCollection(
      collection(
        [
          entry('t', 'productContent', {
            component: 'ProductContentTechnologies',
            name: 'Ressorts ensachés',
            title: 'Ressorts',
            image: link('Asset', 'img'),
          }),
          entry('o', 'productContent', { component: 'ProductContentOther', name: 'x' }),
          entry('n', 'productContent', { component: 'ProductContentTechnologies', name: ' ' }),
        ],
        { Asset: [asset('img', 'javascript:alert(1)')] },
      ),
      HTTPS,
    );
    expect(tech && toTechnology(tech)).toEqual({
      id: 't',
      name: 'Ressorts ensachés',
      title: 'Ressorts',
      description: null,
      image: null,
    });
    expect(other && toTechnology(other)).toBeNull();
    expect(nameless && toTechnology(nameless)).toBeNull();
  });

  test('toContentAsset needs an http(s) URL', () => {
    expect(toContentAsset(asset('a', 'https://x.example/a.jpg'))?.url).toBe(
      'https://x.example/a.jpg',
    );
    expect(toContentAsset(asset('a', '//x.example/a.jpg'))).toBeNull();
    expect(toContentAsset(asset('a', 'data:image/png;base64,x'))).toBeNull();
    expect(toContentAsset(link('Asset', 'a'))).toBeNull();
  });
});
