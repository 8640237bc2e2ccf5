/**
 * The sandbox's Contentful Delivery API emulation and its seeded space: tokens and
 * error shapes, every search parameter the shop uses, link resolution into `includes` with
 * `notResolvable` errors, assets and their files, tags, content types, and the seed itself
 * (the three navigations using every link type, the legal pages, the sleep content, a
 * technology block per product technology, every rich text node type, the hostile content).
 *
 * This file: the seeded navigations and content, tags, assets, content types and the hostile
 * content (the API itself: contentful.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isLink,
  sandboxDelivery,
  sandboxForFile,
  type Asset,
  type Entry,
  type Link,
  type List,
} from './helpers.ts';
import { sandboxApi, startTestSandbox, type TestSandbox } from '../src/testing.ts';

const { sandbox, cda } = sandboxForFile();

async function entries(query: string): Promise<List> {
  const reply = await cda<List>(`/entries?${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

/** Every published entry and asset of the space (include=0 pages). */
async function everything(): Promise<Entry[]> {
  const all: Entry[] = [];
  for (let skip = 0; ; skip += 1000) {
    const page = await entries(`limit=1000&skip=${skip}&include=0`);
    all.push(...page.items);
    if (skip + 1000 >= page.total) return all;
  }
}

describe('seeded navigations', () => {
  async function navigation(identifier: string): Promise<{ root: Entry; reply: List }> {
    const reply = await entries(
      `content_type=navigation&fields.identifier=${encodeURIComponent(identifier)}&limit=1&include=10`,
    );
    expect(reply.total).toBe(1);
    const root = reply.items[0];
    if (!root) throw new Error(identifier);
    return { root, reply };
  }

  /** Link types met walking a navigation, resolving links from items and includes. */
  function walk(
    root: Entry,
    reply: List,
  ): { kinds: Set<string>; depth: number; unresolved: string[] } {
    const byId = new Map(
      [...reply.items, ...(reply.includes?.Entry ?? [])].map((e) => [e.sys.id, e]),
    );
    const kinds = new Set<string>();
    const unresolved: string[] = [];
    let depth = 0;
    const visit = (entry: Entry, level: number): void => {
      depth = Math.max(depth, level);
      for (const link of (entry.fields.childrens ?? []) as Link[]) {
        const child = byId.get(link.sys.id);
        if (!child) {
          unresolved.push(link.sys.id);
          continue;
        }
        const type = child.sys.contentType?.sys.id ?? '';
        kinds.add(type === 'callToAction' ? `callToAction:${String(child.fields.type)}` : type);
        if (type === 'navigation') visit(child, level + 1);
      }
    };
    visit(root, 0);
    return { kinds, depth, unresolved };
  }

  it('the three named navigations use every link type, with nested groups', async () => {
    const kinds = new Set<string>();
    for (const identifier of ['Main Navigation', 'Sidebar Navigation', 'Footer']) {
      const { root, reply } = await navigation(identifier);
      const walked = walk(root, reply);
      for (const k of walked.kinds) kinds.add(k);
      if (identifier === 'Sidebar Navigation') expect(walked.depth).toBeGreaterThanOrEqual(2);
      if (identifier === 'Footer') {
        expect(walked.depth).toBeGreaterThanOrEqual(1);
        expect(walked.unresolved).toEqual(['page-offres-d-ete']);
        expect(reply.errors).toContainEqual({
          sys: { id: 'notResolvable', type: 'error' },
          details: { type: 'Link', linkType: 'Entry', id: 'page-offres-d-ete' },
        });
      } else {
        expect(walked.unresolved).toEqual([]);
      }
    }
    expect([...kinds].sort()).toEqual(
      [
        'brandCorner',
        'callToAction:external',
        'callToAction:free',
        'callToAction:internal',
        'categoryPage',
        'contentPage',
        'navigation',
        'page',
      ].sort(),
    );
  });

  it('the Main Navigation lists the root categories with pushes (plus hidden and unknown ones)', async () => {
    const api = sandboxApi(sandbox());
    const tree = await api<{ data: { id: number; name: string }[] }>(
      'GET',
      '/v3/catalog/categories/tree',
    );
    const { root, reply } = await navigation('Main Navigation');
    const byId = new Map((reply.includes?.Entry ?? []).map((e) => [e.sys.id, e]));
    const pages = ((root.fields.childrens ?? []) as Link[])
      .map((l) => byId.get(l.sys.id))
      .filter((e): e is Entry => e?.sys.contentType?.sys.id === 'categoryPage');
    const ids = pages.map((p) => p.fields.categoryId);
    for (const category of tree.body.data) expect(ids).toContain(category.id);
    expect(ids).toContain(999_999);
    const visibleWithPush = pages.filter((p) => p.fields.titlePush !== undefined);
    expect(visibleWithPush.length).toBe(8);
    for (const p of visibleWithPush) {
      expect(p.fields.contentPush).toMatchObject({ nodeType: 'document' });
    }
  });
});

describe('seeded content', () => {
  it('has the legal and service pages', async () => {
    const pages = await entries('content_type=contentPage&limit=1000');
    const slugs = pages.items.map((e) => e.fields.slug);
    for (const slug of [
      'protection-des-donnees-personnelles',
      'mentions-legales',
      'cgv',
      'cookies',
      'conditions-des-offres',
      'cgu-photographies',
      'aide',
      'aide/retours',
      'contact',
      'faq',
      'livraison',
      'devenir-affilie',
    ]) {
      expect(slugs).toContain(slug);
    }
    expect(slugs).not.toContain('page-piegee');
    expect(slugs).not.toContain('offres-d-ete');
    for (const page of pages.items) {
      expect(String(page.fields.description).length).toBeGreaterThan(20);
      expect(page.fields.body).toMatchObject({ nodeType: 'document' });
    }
    const aide = await entries('content_type=contentPage&fields.slug=aide&include=2');
    expect(aide.errors?.map((e) => e.details.id)).toEqual(['page-offres-d-ete']);
  });

  it('has at least 30 sleep entries of the four formats, with media, tags and related entries', async () => {
    const reply = await entries('content_type=sleepContent&limit=1000');
    expect(reply.total).toBeGreaterThanOrEqual(30);
    const formats = new Map<string, number>();
    for (const e of reply.items) {
      const tags = e.metadata.tags.map((t) => t.sys.id);
      const format = tags.find((t) => t.startsWith('format'));
      expect(format, e.sys.id).toBeDefined();
      formats.set(format ?? '', (formats.get(format ?? '') ?? 0) + 1);
      expect(tags.some((t) => t.startsWith('theme'))).toBe(true);
      expect(isLink(e.fields.image)).toBe(true);
      expect(String(e.fields.publishedAt)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(String(e.fields.slug)).toMatch(/^[a-z0-9-]+$/);
      if (format === 'formatPodcast' || format === 'formatHistoire') {
        expect(isLink(e.fields.audio)).toBe(true);
        expect(e.fields.episode).toEqual(expect.any(Number));
        expect(e.fields.duration).toEqual(expect.any(Number));
      }
      if (format === 'formatVideo') expect(isLink(e.fields.video)).toBe(true);
      // The private tag never reaches the Delivery API.
      expect(tags).not.toContain('relectureInterne');
    }
    for (const format of ['formatPodcast', 'formatHistoire', 'formatVideo', 'formatArticle']) {
      expect(formats.get(format) ?? 0).toBeGreaterThanOrEqual(5);
    }
    const slugs = new Set(reply.items.map((e) => e.sys.id));
    const related = reply.items.flatMap((e) => (e.fields.related ?? []) as Link[]);
    expect(related.length).toBeGreaterThan(30);
    // Every related link resolves but the one draft.
    expect(related.filter((l) => !slugs.has(l.sys.id)).map((l) => l.sys.id)).toEqual([
      'sleep-episode-a-venir',
    ]);
  });

  it('has a technology block for every technology of the seeded products', async () => {
    const api = sandboxApi(sandbox());
    const technologies = new Set<string>();
    for (let page = 1; ; page++) {
      const reply = await api<{
        data: { custom_fields: { name: string; value: string }[] }[];
        meta: { pagination: { total_pages: number } };
      }>('GET', `/v3/catalog/products?include=custom_fields&limit=250&page=${page}`);
      for (const p of reply.body.data) {
        for (const f of p.custom_fields) if (f.name === 'technology') technologies.add(f.value);
      }
      if (page >= reply.body.meta.pagination.total_pages) break;
    }
    expect(technologies.size).toBeGreaterThan(40);
    const blocks = await entries(
      'content_type=productContent&fields.component=ProductContentTechnologies&limit=1000',
    );
    const names = new Set(blocks.items.map((e) => e.fields.name));
    for (const technology of technologies) expect(names, technology).toContain(technology);
    for (const block of blocks.items) {
      expect(String(block.fields.title).length).toBeGreaterThan(0);
      expect(block.fields.description).toMatchObject({ nodeType: 'document' });
    }
    const one = await entries(
      `content_type=productContent&fields.component=ProductContentTechnologies&fields.name=${encodeURIComponent('Ressorts ensachés')}`,
    );
    expect(one.total).toBe(1);
  });

  it('uses every rich text node type and mark', async () => {
    const nodeTypes = new Set<string>();
    const marks = new Set<string>();
    const schemes = new Set<string>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) {
        node.forEach(visit);
        return;
      }
      if (typeof node !== 'object' || node === null) return;
      const n = node as {
        nodeType?: unknown;
        marks?: { type: string }[];
        data?: { uri?: unknown };
        content?: unknown;
      };
      if (typeof n.nodeType === 'string') {
        nodeTypes.add(n.nodeType);
        for (const m of n.marks ?? []) marks.add(m.type);
        if (n.nodeType === 'hyperlink' && typeof n.data?.uri === 'string') {
          schemes.add(n.data.uri.split(':')[0] ?? '');
        }
        visit(n.content);
        return;
      }
      Object.values(node).forEach(visit);
    };
    for (const e of await everything()) visit(e.fields);
    for (const type of [
      'document',
      'paragraph',
      'heading-1',
      'heading-2',
      'heading-3',
      'heading-4',
      'heading-5',
      'heading-6',
      'ordered-list',
      'unordered-list',
      'list-item',
      'blockquote',
      'hr',
      'table',
      'table-row',
      'table-cell',
      'table-header-cell',
      'embedded-entry-block',
      'embedded-entry-inline',
      'embedded-asset-block',
      'hyperlink',
      'entry-hyperlink',
      'asset-hyperlink',
      'text',
    ]) {
      expect(nodeTypes, type).toContain(type);
    }
    expect([...marks].sort()).toEqual(
      ['bold', 'code', 'italic', 'subscript', 'superscript', 'underline'].sort(),
    );
    expect([...schemes].sort()).toEqual(['/les-yeux-fermes', 'https', 'mailto', 'tel'].sort());
  });
});

describe('tags, assets and content types', () => {
  it('lists the public tags', async () => {
    const reply =
      await cda<List<{ name: string; sys: { id: string; type: string; visibility: string } }>>(
        '/tags',
      );
    expect(reply.status).toBe(200);
    expect(reply.body.sys).toEqual({ type: 'Array' });
    const names = reply.body.items.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'format:podcast',
        'format:video',
        'format:histoire',
        'format:article',
      ]),
    );
    expect(names.some((n) => n.startsWith('theme:'))).toBe(true);
    expect(names).toContain('Coup de cœur');
    expect(names).not.toContain('relecture interne');
    for (const tag of reply.body.items) {
      expect(tag.sys).toMatchObject({ type: 'Tag', visibility: 'public' });
      expect(tag.sys.id).toMatch(/^[A-Za-z]+$/);
    }
    expect(reply.body.total).toBe(reply.body.items.length);
    const one = await cda<{ name: string }>('/tags/formatPodcast');
    expect(one.body.name).toBe('format:podcast');
    expect((await cda('/tags/relectureInterne')).status).toBe(404);
  });

  it('serves pictures and sounds at their protocol-relative URLs with the right content types', async () => {
    const pictures = await cda<List<Asset>>('/assets?mimetype_group=image&limit=3');
    expect(pictures.body.total).toBeGreaterThan(10);
    const host = new URL(sandbox().url).host;
    for (const asset of pictures.body.items) {
      const { file } = asset.fields;
      expect(
        file.url.startsWith(
          `//${host}/images/ctf/${sandbox().contentful.spaceId}/${asset.sys.id}/`,
        ),
      ).toBe(true);
      expect(file.contentType).toBe('image/jpeg');
      expect(file.details.image).toEqual({ width: 1280, height: 1280 });
      const response = await fetch(`http:${file.url}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(bytes.byteLength).toBe(file.details.size);
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
      const small = await fetch(`http:${file.url}?w=300`);
      expect((await small.arrayBuffer()).byteLength).toBeLessThan(bytes.byteLength);
    }
    const sounds = await cda<List<Asset>>('/assets?mimetype_group=audio&limit=1000');
    expect(sounds.body.total).toBeGreaterThanOrEqual(18);
    const audio = sounds.body.items[0];
    if (!audio) throw new Error('no audio asset');
    expect(audio.fields.file.url).toMatch(/^\/\/[^/]+\/ctf-assets\//);
    const response = await fetch(`http:${audio.fields.file.url}`);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const wav = Buffer.from(await response.arrayBuffer());
    expect(wav.byteLength).toBe(audio.fields.file.details.size);
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.subarray(8, 12).toString('ascii')).toBe('WAVE');
    const single = await cda<Asset>(`/assets/${audio.sys.id}`);
    expect(single.body.fields.file.url).toBe(audio.fields.file.url);
    // A wrong hash or file name is a 404.
    const wrong = audio.fields.file.url.replace(/\/[0-9a-f]{32}\//, `/${'0'.repeat(32)}/`);
    expect((await fetch(`http:${wrong}`)).status).toBe(404);
    expect((await cda('/assets/nope')).status).toBe(404);
  });

  it('lists the content types of the model', async () => {
    const reply =
      await cda<List<{ sys: { id: string }; fields: { id: string; type: string }[] }>>(
        '/content_types',
      );
    expect(reply.body.items.map((t) => t.sys.id).sort()).toEqual(
      [
        'brandCorner',
        'callToAction',
        'categoryPage',
        'contentPage',
        'navigation',
        'page',
        'productContent',
        'sleepContent',
      ].sort(),
    );
    const sleep = await cda<{ fields: { id: string }[] }>('/content_types/sleepContent');
    expect(sleep.body.fields.map((f) => f.id)).toEqual(
      expect.arrayContaining([
        'title',
        'slug',
        'excerpt',
        'episode',
        'duration',
        'image',
        'audio',
        'video',
        'body',
        'related',
        'publishedAt',
      ]),
    );
  });
});

describe('hostile content', () => {
  let hostile: TestSandbox;
  beforeAll(async () => {
    hostile = await startTestSandbox({ hostile: true });
  });
  afterAll(async () => {
    await hostile.close();
  });

  it('seeds a hostile page, episode and Footer links', async () => {
    const get = sandboxDelivery(hostile);
    const page = await get<List>('/entries?content_type=contentPage&fields.slug=page-piegee');
    expect(page.body.total).toBe(1);
    const text = JSON.stringify(page.body.items[0]?.fields);
    for (const payload of [
      '<script>alert(',
      'onerror=alert(',
      'javascript:alert(',
      'JaVaScRiPt:',
      'data:text/html',
      'vbscript:',
      '"nodeType":"script"',
    ]) {
      expect(text).toContain(payload);
    }
    expect(page.body.errors?.map((e) => e.details.id).sort()).toEqual([
      'does-not-exist',
      'page-offres-d-ete',
    ]);
    const episode = await get<List>('/entries?content_type=sleepContent&fields.slug=episode-piege');
    expect(episode.body.total).toBe(1);
    expect(String(episode.body.items[0]?.fields.title)).toContain('<script>');
    const footer = await get<List>(
      '/entries?content_type=navigation&fields.identifier=Footer&include=10',
    );
    const urls = (footer.body.includes?.Entry ?? [])
      .filter((e) => e.sys.contentType?.sys.id === 'callToAction')
      .map((e) => String(e.fields.url));
    expect(urls).toContain('javascript:alert(251)');
  });
});
