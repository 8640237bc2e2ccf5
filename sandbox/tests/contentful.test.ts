/**
 * The sandbox's Contentful Delivery API emulation and its seeded space: tokens and
 * error shapes, every search parameter the shop uses, link resolution into `includes` with
 * `notResolvable` errors, assets and their files, tags, content types, and the seed itself
 * (the three navigations using every link type, the legal pages, the sleep content, a
 * technology block per product technology, every rich text node type, the hostile content).
 *
 * This file: access and errors, search parameters, links (the seeded space: contentful-
 * content.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLink, sandboxForFile, type Link, type List } from './helpers.ts';

interface CtfError {
  sys: { type: 'Error'; id: string };
  message: string;
  details?: { errors?: { name: string }[]; type?: string; id?: string };
  requestId: string;
}

const { sandbox, cda } = sandboxForFile();

async function entries(query: string): Promise<List> {
  const reply = await cda<List>(`/entries?${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

describe('access and errors', () => {
  it('answers 401 AccessTokenInvalid without or with a wrong token; access_token also works', async () => {
    for (const token of [null, 'wrong', sandbox().contentful.managementToken]) {
      const reply = await cda<CtfError>('/entries', token);
      expect(reply.status).toBe(401);
      expect(reply.body.sys).toEqual({ type: 'Error', id: 'AccessTokenInvalid' });
      expect(reply.body.message).toEqual(expect.any(String));
      expect(reply.body.requestId).toEqual(expect.any(String));
    }
    const { spaceId, environment, deliveryToken } = sandbox().contentful;
    const response = await fetch(
      `${sandbox().url}/contentful/spaces/${spaceId}/environments/${environment}/entries?limit=1&access_token=${deliveryToken}`,
    );
    expect(response.status).toBe(200);
    // /spaces/{space}/entries is the master environment.
    const master = await fetch(`${sandbox().url}/contentful/spaces/${spaceId}/entries?limit=1`, {
      headers: { Authorization: `Bearer ${deliveryToken}` },
    });
    expect(master.status).toBe(200);
  });

  it('answers 404 NotFound for an unknown entry, space or environment, and for a draft', async () => {
    const entry = await cda<CtfError>('/entries/does-not-exist');
    expect(entry.status).toBe(404);
    expect(entry.body.sys).toEqual({ type: 'Error', id: 'NotFound' });
    expect(entry.body.details).toMatchObject({ type: 'Entry', id: 'does-not-exist' });
    expect((await cda('/entries/page-offres-d-ete')).status).toBe(404);
    const space = await fetch(
      `${sandbox().url}/contentful/spaces/other/environments/master/entries`,
      {
        headers: { Authorization: `Bearer ${sandbox().contentful.deliveryToken}` },
      },
    );
    expect(space.status).toBe(404);
    const environment = await fetch(
      `${sandbox().url}/contentful/spaces/${sandbox().contentful.spaceId}/environments/staging/entries`,
      { headers: { Authorization: `Bearer ${sandbox().contentful.deliveryToken}` } },
    );
    expect(environment.status).toBe(404);
  });

  it('answers 400 InvalidQuery for fields.* without content_type, unknown types or fields, bad limits', async () => {
    const cases = [
      'fields.slug=cgv',
      'order=fields.title',
      'content_type=nope',
      'content_type=page&fields.nope=1',
      'content_type=page&fields.title[unknownop]=x',
      'limit=1001',
      'limit=-1',
      'limit=abc',
      'skip=-5',
      'include=11',
      'content_type=contentPage&order=fields.body',
      'sys.nope=1',
    ];
    for (const query of cases) {
      const reply = await cda<CtfError>(`/entries?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.body.sys, query).toEqual({ type: 'Error', id: 'InvalidQuery' });
      expect(reply.body.message).toContain('The query you sent was invalid');
    }
    const first = await cda<CtfError>('/entries?fields.slug=cgv');
    expect(first.body.details?.errors?.[0]?.name).toBe('unknownContentType');
  });

  it('answers any query with 200 or a 400 error body, never a server error', async () => {
    const key = fc.oneof(
      fc.constantFrom(
        'content_type',
        'limit',
        'skip',
        'include',
        'order',
        'select',
        'query',
        'locale',
      ),
      fc
        .tuple(
          fc.constantFrom('fields.', 'sys.', 'metadata.tags.sys.', 'fields.related.sys.', ''),
          fc.string({ maxLength: 12 }),
          fc.constantFrom('', '[in]', '[match]', '[exists]', '[lt]', '[nope]', '['),
        )
        .map(([a, b, c]) => `${a}${b}${c}`),
    );
    const value = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom('sleepContent', 'page', '-fields.publishedAt', '1001', '-1', 'true', '*'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, value), { maxLength: 5 }), async (pairs) => {
        const params = new URLSearchParams(pairs);
        const reply = await cda<CtfError | List>(`/entries?${params.toString()}`);
        expect([200, 400], params.toString()).toContain(reply.status);
        if (reply.status === 400) expect((reply.body as CtfError).sys.type).toBe('Error');
      }),
      { numRuns: 150 },
    );
  });

  it('answers injected faults with Contentful error bodies', async () => {
    const admin = (method: string, body?: unknown): Promise<Response> =>
      fetch(`${sandbox().url}/__sandbox/faults`, {
        method,
        headers: { 'X-Auth-Token': sandbox().token, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    expect((await admin('POST', { match: '/contentful/', status: 429, times: 1 })).status).toBe(
      201,
    );
    try {
      const reply = await cda<CtfError>('/entries');
      expect(reply.status).toBe(429);
      expect(reply.body.sys).toEqual({ type: 'Error', id: 'RateLimitExceeded' });
      expect(reply.headers.get('x-contentful-ratelimit-reset')).toBe('1');
    } finally {
      await admin('DELETE');
    }
  });

  it('serves locale fr and * and refuses other locales', async () => {
    const fr = await entries('content_type=page&fields.slug=panier&locale=fr');
    expect(fr.items[0]?.sys.locale).toBe('fr');
    expect(fr.items[0]?.fields.title).toBe('Mon panier');
    const all = await entries('content_type=page&fields.slug=panier&locale=*');
    expect(all.items[0]?.fields.title).toEqual({ fr: 'Mon panier' });
    const other = await cda<CtfError>('/entries?locale=en-US');
    expect(other.status).toBe(400);
    expect(other.body.sys.id).toBe('BadRequest');
  });
});

describe('search parameters', () => {
  it('defaults to limit 100, pages with limit and skip, and counts the total', async () => {
    const first = await entries('');
    expect(first.sys).toEqual({ type: 'Array' });
    expect(first.limit).toBe(100);
    expect(first.skip).toBe(0);
    expect(first.items).toHaveLength(100);
    expect(first.total).toBeGreaterThan(100);
    const page = await entries('limit=7&skip=3&include=0');
    expect(page.items.map((e) => e.sys.id)).toEqual(first.items.slice(3, 10).map((e) => e.sys.id));
    expect(page.total).toBe(first.total);
    const beyond = await entries(`skip=${first.total}`);
    expect(beyond.items).toEqual([]);
  });

  it('filters by content_type and fields equality, [in], [ne], [exists]', async () => {
    const cgv = await entries('content_type=contentPage&fields.slug=cgv');
    expect(cgv.total).toBe(1);
    expect(cgv.items[0]?.fields.title).toBe('Conditions générales de vente');
    expect(cgv.items[0]?.sys.contentType?.sys).toEqual({
      type: 'Link',
      linkType: 'ContentType',
      id: 'contentPage',
    });
    const some = await entries('content_type=contentPage&fields.slug[in]=cgv,cookies,nope');
    expect(some.items.map((e) => e.fields.slug).sort()).toEqual(['cgv', 'cookies']);
    const pages = await entries('content_type=contentPage');
    const notCgv = await entries('content_type=contentPage&fields.slug[ne]=cgv');
    expect(notCgv.total).toBe(pages.total - 1);
    const withAudio = await entries('content_type=sleepContent&fields.audio[exists]=true');
    const withoutAudio = await entries('content_type=sleepContent&fields.audio[exists]=false');
    const sleep = await entries('content_type=sleepContent');
    expect(withAudio.total + withoutAudio.total).toBe(sleep.total);
    expect(withAudio.items.every((e) => isLink(e.fields.audio))).toBe(true);
    const episode = await entries('content_type=sleepContent&fields.episode=3');
    expect(episode.items.map((e) => e.fields.episode)).toEqual([3, 3]);
    const technologies = await entries(
      'content_type=productContent&fields.component=ProductContentTechnologies&limit=1000',
    );
    expect(technologies.total).toBeGreaterThan(40);
  });

  it('matches text case-insensitively with [match], also in rich text, and with query', async () => {
    const matched = await entries('content_type=sleepContent&fields.title[match]=SOMMEIL');
    expect(matched.total).toBeGreaterThan(0);
    for (const e of matched.items)
      expect(String(e.fields.title).toLowerCase()).toContain('sommeil');
    const body = await entries('content_type=contentPage&fields.body[match]=rétractation');
    expect(body.items.map((e) => e.fields.slug)).toContain('cgv');
    const none = await entries('content_type=sleepContent&fields.title[match]=zzzzzz');
    expect(none.total).toBe(0);
    const query = await entries('query=lucioles&content_type=sleepContent');
    expect(query.items.map((e) => e.fields.slug)).toContain('la-foret-aux-lucioles');
  });

  it('filters by tags, sys.id and sys.id[in], and by links', async () => {
    const podcasts = await entries(
      'content_type=sleepContent&metadata.tags.sys.id[in]=formatPodcast&limit=1000',
    );
    expect(podcasts.total).toBe(10);
    for (const e of podcasts.items) {
      expect(e.metadata.tags.map((t) => t.sys.id)).toContain('formatPodcast');
    }
    const both = await entries(
      'content_type=sleepContent&metadata.tags.sys.id[all]=formatHistoire,themeEnfants',
    );
    expect(both.total).toBeGreaterThan(0);
    const byId = await entries('sys.id=nav-main');
    expect(byId.items.map((e) => e.sys.id)).toEqual(['nav-main']);
    const byIds = await entries('sys.id[in]=nav-main,nav-footer,draft-that-does-not-exist');
    expect(byIds.items.map((e) => e.sys.id).sort()).toEqual(['nav-footer', 'nav-main']);
    const linking = await entries(
      'links_to_entry=sleep-la-respiration-4-7-8-mode-d-emploi&content_type=sleepContent',
    );
    expect(linking.total).toBeGreaterThan(0);
    const related = await entries(
      'content_type=sleepContent&fields.related.sys.id=sleep-le-sommeil-des-ados',
    );
    expect(related.items.map((e) => e.fields.slug)).toContain('ecrans-lumiere-bleue-et-melatonine');
  });

  it('orders by fields and sys, descending with -, with comma lists', async () => {
    const newest = await entries('content_type=sleepContent&order=-fields.publishedAt&limit=1000');
    const dates = newest.items.map((e) => String(e.fields.publishedAt));
    expect(dates).toEqual([...dates].sort().reverse());
    const oldest = await entries('order=sys.createdAt&limit=1000&include=0');
    const created = oldest.items.map((e) => String(e.sys.createdAt));
    expect(created).toEqual([...created].sort());
    const byEpisode = await entries(
      'content_type=sleepContent&fields.episode[exists]=true&order=fields.episode,-sys.id&limit=1000',
    );
    const pairs = byEpisode.items.map((e) => [Number(e.fields.episode), e.sys.id] as const);
    for (let i = 1; i < pairs.length; i++) {
      const [a, idA] = pairs[i - 1] ?? [0, ''];
      const [b, idB] = pairs[i] ?? [0, ''];
      expect(a <= b).toBe(true);
      if (a === b) expect(idA > idB).toBe(true);
    }
  });

  it('selects fields', async () => {
    const selected = await entries('content_type=contentPage&select=fields.title,fields.slug');
    for (const e of selected.items) {
      expect(Object.keys(e.fields).sort()).toEqual(['slug', 'title']);
      expect(e.sys.id).toEqual(expect.any(String));
    }
  });
});

describe('links', () => {
  const id = 'sleep-pourquoi-se-reveille-t-on-a-3-heures-du-matin';

  it('include=0 resolves nothing; include=1 one level; include=2 two levels', async () => {
    const none = await entries(`sys.id=${id}&include=0`);
    expect(none.includes).toBeUndefined();
    expect(none.errors).toBeUndefined();
    const one = await entries(`sys.id=${id}&include=1`);
    const oneIds = (one.includes?.Entry ?? []).map((e) => e.sys.id);
    expect(oneIds.sort()).toEqual([
      'sleep-la-respiration-4-7-8-mode-d-emploi',
      'sleep-les-cycles-du-sommeil-expliques-simplement',
    ]);
    expect((one.includes?.Asset ?? []).map((a) => a.sys.id)).toEqual(
      expect.arrayContaining([`audio-${id.slice(6)}`.slice(0, 64)]),
    );
    const two = await entries(`sys.id=${id}&include=2`);
    const twoIds = (two.includes?.Entry ?? []).map((e) => e.sys.id);
    expect(twoIds).toEqual(
      expect.arrayContaining([...oneIds, 'sleep-coherence-cardiaque-5-minutes-guidees']),
    );
    // The default is one level.
    const byDefault = await entries(`sys.id=${id}`);
    expect((byDefault.includes?.Entry ?? []).length).toBe(oneIds.length);
  });

  it('reports a link to an unpublished entry as notResolvable and leaves it a link', async () => {
    const reply = await entries(`sys.id=${id}`);
    expect(reply.errors).toEqual([
      {
        sys: { id: 'notResolvable', type: 'error' },
        details: { type: 'Link', linkType: 'Entry', id: 'sleep-episode-a-venir' },
      },
    ]);
    const related = reply.items[0]?.fields.related as Link[];
    expect(related.at(-1)).toEqual({
      sys: { type: 'Link', linkType: 'Entry', id: 'sleep-episode-a-venir' },
    });
  });

  it('does not repeat in includes the entries found in items', async () => {
    const reply = await entries('content_type=sleepContent&limit=1000&include=2');
    const itemIds = new Set(reply.items.map((e) => e.sys.id));
    for (const e of reply.includes?.Entry ?? []) expect(itemIds.has(e.sys.id)).toBe(false);
    const includedIds = (reply.includes?.Entry ?? []).map((e) => e.sys.id);
    expect(new Set(includedIds).size).toBe(includedIds.length);
  });
});
