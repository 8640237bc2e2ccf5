import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LISTING_PARAMS } from '../../src/lib/commerce/listing.ts';
import { createMemoryStore } from '../../src/shop/state/memory.ts';
import { renderKey } from '../../src/server/cache-key.ts';
import {
  cachedReply,
  createRenderCache,
  decodeReply,
  encodeReply,
  etagOf,
  freshness,
} from '../../src/server/render-cache.ts';

const HOST = 'boutique.example';

describe('renderKey: which on-demand pages are shared, under what key', () => {
  test.each([
    ['a listing view', '/vue/c/matelas?page=2', `${HOST}/vue/c/matelas?page=2`],
    [
      'parameters in canonical order',
      '/vue/c/matelas?page=2&sort=3',
      `${HOST}/vue/c/matelas?sort=3&page=2`,
    ],
    [
      'defaults dropped',
      '/vue/c/matelas?page=1&sort=1&itemsperpage=20&term=',
      `${HOST}/vue/c/matelas`,
    ],
    [
      'unknown parameters ignored',
      '/vue/c/matelas?utm_source=mail&page=3&fbclid=x',
      `${HOST}/vue/c/matelas?page=3`,
    ],
    [
      'list values sorted and deduplicated',
      '/vue/c/lits?taille=160x200&taille=140x190,160x200',
      `${HOST}/vue/c/lits?taille=140x190&taille=160x200`,
    ],
    ['a sort named by field', '/vue/c/lits?sort=price&direction=desc', `${HOST}/vue/c/lits?sort=3`],
    ['an unreadable page number is page 1', '/vue/c/lits?page=abc', `${HOST}/vue/c/lits`],
    ['search results', '/resultats-de-recherche/matelas', `${HOST}/resultats-de-recherche/matelas`],
    [
      'search results, page 2',
      '/resultats-de-recherche/matelas?page=2&x=1',
      `${HOST}/resultats-de-recherche/matelas?page=2`,
    ],
    [
      'search results as typed, page 2',
      '/resultats-de-recherche/matelat?page=2&exact=&x=1',
      `${HOST}/resultats-de-recherche/matelat?exact=1&page=2`,
    ],
    [
      'search results, page 1 dropped',
      '/resultats-de-recherche/matelas?page=1',
      `${HOST}/resultats-de-recherche/matelas`,
    ],
  ])('%s', (_case, target, key) => {
    const found = renderKey(HOST, target);
    expect(found?.key).toBe(key);
    expect(found?.url).toBe(key.slice(HOST.length));
  });

  test('the host is part of the key, lower-cased', () => {
    expect(renderKey('Boutique.Example:8080', '/vue/c/lits')?.key).toBe(
      'boutique.example:8080/vue/c/lits',
    );
    expect(renderKey('autre.example', '/vue/c/lits')?.key).toBe('autre.example/vue/c/lits');
  });

  test.each([
    ['another route', '/panier'],
    ['an account page', '/mon-compte/commandes'],
    ['the API', '/api/bigcommerce/getCategoryTree'],
    ['the listing prefix alone', '/vue/c/'],
    ['a trailing slash (answered 301)', '/vue/c/matelas/'],
    ['a dot segment', '/vue/c/../../panier'],
    ['an encoded dot segment', '/vue/c/%2e%2e/%2e%2e/panier'],
    ['a mixed-case encoded dot segment', '/vue/c/%2E%2e/panier'],
    ['a double slash', '/vue/c//matelas'],
    ['a backslash', '/vue/c/..\\panier'],
    ['a non-ASCII byte the parser would encode', '/vue/c/matelas\u00e9'],
    ['the redirect-to-cart parameters', '/vue/c/matelas?page=2&id=abc&token=def'],
    ['the search form redirect', '/resultats-de-recherche?term=matelas'],
    ['a prefix look-alike', '/vue/cc/matelas'],
    ['the search look-alike', '/resultats-de-recherche-bis'],
  ])('%s is not shared', (_case, target) => {
    expect(renderKey(HOST, target)).toBeNull();
  });

  test.each([
    ['no host', undefined],
    ['an empty host', ''],
    ['a host with a path', 'evil.example/x'],
    ['a host with spaces', 'evil example'],
    ['a host with userinfo', 'user@evil.example'],
  ])('%s: not shared', (_case, host) => {
    expect(renderKey(host, '/vue/c/matelas')).toBeNull();
  });

  // Generated queries: known listing parameters with values, defaults and unknown ones.
  const label = fc.stringMatching(/^[a-z]{1,6}$/);
  const known = fc.oneof(
    fc.integer({ min: 2, max: 50 }).map((n) => [LISTING_PARAMS.page, String(n)] as const),
    fc.constantFrom('2', '3', '4', '5', '6', '7').map((n) => [LISTING_PARAMS.sort, n] as const),
    fc.constantFrom('40', '60').map((n) => [LISTING_PARAMS.itemsPerPage, n] as const),
    fc.integer({ min: 1, max: 99 }).map((n) => [LISTING_PARAMS.brand, String(n)] as const),
    label.map((l) => [LISTING_PARAMS.size, l] as const),
    label.map((l) => [LISTING_PARAMS.colour, l] as const),
    fc.constant([LISTING_PARAMS.availability, 'en-stock'] as const),
    fc.integer({ min: 1, max: 5000 }).map((n) => [LISTING_PARAMS.priceMin, String(n)] as const),
  );
  const single = new Set<string>([
    LISTING_PARAMS.page,
    LISTING_PARAMS.sort,
    LISTING_PARAMS.itemsPerPage,
    LISTING_PARAMS.priceMin,
    LISTING_PARAMS.availability,
  ]);
  // One value per single-valued parameter (a repeated `page` takes its first value).
  const query = fc
    .array(known, { maxLength: 8 })
    .map((pairs) =>
      pairs.filter(([name], i) => !single.has(name) || pairs.findIndex(([n]) => n === name) === i),
    );
  const names: readonly string[] = [...Object.values(LISTING_PARAMS), 'id', 'token'];
  const unknown = fc.tuple(
    fc.stringMatching(/^[a-z_]{1,10}$/).filter((n) => !names.includes(n)),
    fc.string({ maxLength: 12 }),
  );
  const defaults = fc.constantFrom(
    [LISTING_PARAMS.page, '1'],
    [LISTING_PARAMS.sort, '1'],
    [LISTING_PARAMS.itemsPerPage, '20'],
    [LISTING_PARAMS.term, ''],
    [LISTING_PARAMS.size, ''],
  );
  const encode = (pairs: readonly (readonly [string, string])[]) =>
    pairs.length === 0 ? '' : `?${new URLSearchParams(pairs.map(([n, v]) => [n, v])).toString()}`;

  test('equivalent queries share one key: any order, unknown parameters, defaults', () => {
    fc.assert(
      fc.property(
        query,
        fc.array(unknown, { maxLength: 4 }),
        fc.array(defaults, { maxLength: 3 }),
        fc.array(fc.integer(), { minLength: 16, maxLength: 16 }),
        (pairs, extra, noise, ranks) => {
          const base = renderKey(HOST, `/vue/c/matelas${encode(pairs)}`);
          // Defaults only where the parameter is not set already (a later value would not win).
          const unset = noise.filter(([name]) => !pairs.some(([n]) => n === name));
          const mixed = [...pairs, ...extra, ...unset]
            .map((pair, i) => ({ pair, rank: ranks[i] ?? 0 }))
            .sort((a, b) => a.rank - b.rank)
            .map(({ pair }) => pair);
          // Single-valued parameters keep their relative order (the first one wins).
          const firsts = mixed.filter(
            ([name], i) => !single.has(name) || mixed.findIndex(([n]) => n === name) === i,
          );
          const other = renderKey(HOST, `/vue/c/matelas${encode(firsts)}`);
          expect(base).not.toBeNull();
          expect(other?.key).toBe(base?.key);
        },
      ),
    );
  });

  test('the rendered URL is canonical: its own key, and a fixed point', () => {
    fc.assert(
      fc.property(query, fc.array(unknown, { maxLength: 3 }), (pairs, extra) => {
        const first = renderKey(HOST, `/vue/c/lits${encode([...pairs, ...extra])}`);
        expect(first).not.toBeNull();
        const again = renderKey(HOST, first?.url ?? '');
        expect(again).toEqual(first);
      }),
    );
  });

  test('different pages never share a key', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 10_000 }),
        (a, b) => {
          fc.pre(a !== b);
          const keyA = renderKey(HOST, `/vue/c/lits?page=${a}`)?.key;
          const keyB = renderKey(HOST, `/vue/c/lits?page=${b}`)?.key;
          expect(keyA).not.toBe(keyB);
        },
      ),
    );
  });

  test('a path the URL parser would rewrite is never shared', () => {
    const segment = fc.oneof(
      fc.stringMatching(/^[a-z-]{1,8}$/),
      fc.constantFrom('..', '.', '%2e%2e', '%2E.', '.%2e', '%2e', '', '\\..'),
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = `/vue/c/${segments.join('/')}`;
        const key = renderKey(HOST, path);
        if (key !== null) {
          expect(new URL(path, 'http://x').pathname).toBe(path);
          expect(key.url.startsWith('/vue/c/')).toBe(true);
        }
        const rewritten = new URL(path, 'http://x').pathname !== path;
        if (rewritten) expect(key).toBeNull();
      }),
    );
  });
});

describe('cached replies', () => {
  const reply = (body: string, now = 1_000) =>
    cachedReply({ 'content-type': 'text/html' }, Buffer.from(body), {
      now,
      freshMs: 60_000,
      staleMs: 300_000,
    });

  test.each([
    [0, 'fresh'],
    [59_999, 'fresh'],
    [60_000, 'stale'],
    [359_999, 'stale'],
    [360_000, 'expired'],
  ] as const)('at age %i ms a reply is %s', (age, state) => {
    expect(freshness(reply('x'), 1_000 + age)).toBe(state);
  });

  test('ETags: strong for the rendered bytes, weak and distinct per coding', () => {
    const r = reply('<h1>x</h1>');
    expect(etagOf(r, 'identity')).toMatch(/^"[\w-]+"$/);
    expect(etagOf(r, 'br')).toBe(`W/"${r.hash}-br"`);
    expect(etagOf(r, 'gzip')).toBe(`W/"${r.hash}-gzip"`);
    expect(reply('<h1>y</h1>').hash).not.toBe(r.hash);
  });

  test('encodeReply/decodeReply round-trip any reply', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2000 }),
        fc.option(fc.uint8Array({ maxLength: 500 }), { nil: undefined }),
        fc.option(fc.uint8Array({ maxLength: 500 }), { nil: undefined }),
        fc.dictionary(fc.stringMatching(/^[a-z-]{1,12}$/), fc.string({ maxLength: 40 })),
        (identity, br, gzip, headers) => {
          const r = {
            ...cachedReply(headers, Buffer.from(identity), { now: 5, freshMs: 1, staleMs: 2 }),
            br: br && Buffer.from(br),
            gzip: gzip && Buffer.from(gzip),
          };
          const back = decodeReply(encodeReply(r));
          expect(back?.identity?.equals(r.identity)).toBe(true);
          expect(back?.br?.toString('hex')).toBe(r.br?.toString('hex'));
          expect(back?.gzip?.toString('hex')).toBe(r.gzip?.toString('hex'));
          expect(back?.headers).toEqual(headers);
          expect(back?.hash).toBe(r.hash);
        },
      ),
    );
  });

  test('decodeReply refuses what it did not write', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const decoded = decodeReply(Buffer.from(bytes));
        if (decoded !== null) expect(decoded.identity).toBeInstanceOf(Buffer);
      }),
    );
    const good = encodeReply(reply('abc'));
    expect(decodeReply(good.subarray(0, good.length - 1))).toBeNull();
    expect(decodeReply(Buffer.concat([good, Buffer.from('x')]))).toBeNull();
  });
});

describe('createRenderCache', () => {
  test('concurrent fills of one key run one render (single flight)', async () => {
    const cache = createRenderCache({ buildId: 'b1' });
    let renders = 0;
    // The render finishes when the test says so: every fill below starts while it runs.
    let finish: () => void = () => undefined;
    const render = async () => {
      renders += 1;
      await new Promise<void>((resolve) => (finish = resolve));
      return {
        cache: cachedReply({}, Buffer.from('page'), { now: Date.now(), freshMs: 1000, staleMs: 0 }),
      };
    };
    const key = cache.keyOf('boutique.example/vue/c/lits');
    const fills = Array.from({ length: 20 }, () => cache.fill(key, render));
    expect(renders).toBe(1);
    finish();
    const outcomes = await Promise.all(fills);
    expect(renders).toBe(1);
    expect(outcomes.every((o) => o.cache?.identity.toString() === 'page')).toBe(true);
    expect((await cache.get(key))?.identity.toString()).toBe('page');
    const later = cache.fill(key, render);
    finish();
    await later;
    expect(renders).toBe(2);
  });

  test('keys carry the build id', () => {
    const a = createRenderCache({ buildId: 'build-a' });
    const b = createRenderCache({ buildId: 'build-b' });
    expect(a.keyOf('h/vue/c/lits')).not.toBe(b.keyOf('h/vue/c/lits'));
    // Two copies of one build name a page alike (so they share its reply through the store),
    // a long name too (not memoised), and two pages differ.
    const copyOfA = createRenderCache({ buildId: 'build-a' });
    expect(copyOfA.keyOf('h/vue/c/lits')).toBe(a.keyOf('h/vue/c/lits'));
    const long = `h/vue/c/lits?${'couleur=bleu&'.repeat(50)}`;
    expect(copyOfA.keyOf(long)).toBe(a.keyOf(long));
    expect(a.keyOf('h/vue/c/lits')).not.toBe(a.keyOf('h/vue/c/matelas'));
  });

  test('in-process memory stays within its bound, least recently used out first', async () => {
    const cache = createRenderCache({ buildId: 'b', maxBytes: 20_000 });
    const body = Buffer.alloc(3_000, 'a');
    const now = Date.now();
    const put = (name: string) =>
      cache.set(cache.keyOf(name), cachedReply({}, body, { now, freshMs: 60_000, staleMs: 0 }));
    for (const name of ['a', 'b', 'c', 'd', 'e']) await put(name);
    await cache.get(cache.keyOf('a')); // used: b is now the oldest
    for (const name of ['f', 'g']) await put(name);
    expect(cache.stats().bytes).toBeLessThanOrEqual(20_000);
    expect(await cache.get(cache.keyOf('a'))).not.toBeNull();
    expect(await cache.get(cache.keyOf('b'))).toBeNull();
    expect(await cache.get(cache.keyOf('g'))).not.toBeNull();
  });

  test('copies share replies through the store; a failing store is a miss, not an error', async () => {
    const store = createMemoryStore();
    const a = createRenderCache({ buildId: 'b', store });
    const b = createRenderCache({ buildId: 'b', store });
    const key = a.keyOf('h/vue/c/lits');
    await a.set(key, reply('partagé'));
    expect((await b.get(key))?.identity.toString()).toBe('partagé');

    // What Redis holds: brotli only, identity restored (and checked) on the way back.
    const held = decodeReply((await store.getBuffer(key)) ?? Buffer.alloc(0));
    expect(held?.identity).toBeUndefined();
    expect(held?.gzip).toBeUndefined();
    expect(held?.br).toBeInstanceOf(Buffer);
    await store.set(key, encodeReply({ ...reply('autre'), hash: held?.hash ?? '' }), 60_000);
    const fresh = createRenderCache({ buildId: 'b', store });
    expect(await fresh.get(key)).toBeNull(); // body and hash disagree: not served

    const errors: unknown[] = [];
    const broken = {
      ...store,
      getBuffer: () => Promise.reject(new Error('redis down')),
      set: () => Promise.reject(new Error('redis down')),
    };
    const c = createRenderCache({
      buildId: 'b',
      store: broken,
      onStoreError: (e) => errors.push(e),
    });
    expect(await c.get(key)).toBeNull();
    await c.set(key, reply('local'));
    expect((await c.get(key))?.identity.toString()).toBe('local');
    expect(errors.length).toBeGreaterThan(0);
  });

  test('new replies shared per minute are capped (a flood of distinct URLs stays local)', async () => {
    const store = createMemoryStore();
    const a = createRenderCache({ buildId: 'q', store, shareQuotaPerMinute: 3 });
    const b = createRenderCache({ buildId: 'q', store });
    for (let i = 0; i < 5; i++) await a.set(a.keyOf(`h/vue/c/lits?page=${i + 2}`), reply(`p${i}`));
    const seen = await Promise.all(
      Array.from({ length: 5 }, (_, i) => b.get(b.keyOf(`h/vue/c/lits?page=${i + 2}`))),
    );
    expect(seen.filter((r) => r !== null)).toHaveLength(3);
    expect((await a.get(a.keyOf('h/vue/c/lits?page=6')))?.identity.toString()).toBe('p4');
  });

  function reply(body: string) {
    return cachedReply({}, Buffer.from(body), { now: Date.now(), freshMs: 60_000, staleMs: 0 });
  }
});
