/**
 * The guaranteed-reviews provider (Société des Avis Garantis), public and unauthenticated:
 * `GET /guaranteed-reviews/public/v3/reviews/{siteKey}/site` and `.../{siteKey}/{productId}`
 * answer `{ ratings: { total, average, distribution: { '1'..'5' } }, reviews: [{ id, c, r, txt,
 * date, odate, reply, rdate, lang }] }`, newest first, at most 1,000 (the provider's documentation). A
 * product's reviews are its seeded BigCommerce reviews (routes/reviews.ts: same count and
 * ratings); the site's ratings are those of every visible product, its list the reviews of the
 * 100 most recently created ones. The site's ratings add up each product's count of reviews
 * per star, written beside it (`rated_1`..`rated_5`, seed/ratings.ts) and read through an
 * index: drawing every product's reviews per request took 5.8 s at 100,000 products, past
 * the shop's 3 s timeout. The reply is kept until the database changes. Any well-formed key is a site (the
 * sandbox cannot know the provider's registrations); a malformed one, or an unknown product,
 * is a 404 `{ error }` (assumed: the provider's error shape is not documented).
 *
 * `GET /guaranteed-reviews/widget?id=` stands in for the provider's carousel iframe page.
 */
import type { DatabaseSync } from 'node:sqlite';
import { changeCount } from '../db.ts';
import { escapeHtml, html, json, type Reply } from '../http.ts';
import type { ProductFacts } from '../seed/ratings.ts';
import { productReviews, type ReviewRecord } from './reviews.ts';

const API_PREFIX = '/guaranteed-reviews/public/v3/reviews/';
export const WIDGET_PATH = '/guaranteed-reviews/widget';
const SITE_KEY = /^[A-Za-z0-9-]{1,64}$/;
const MAX_REVIEWS = 1000;

/** `YYYY-MM-DD HH:MM:SS`, as the provider writes dates. */
const providerDate = (iso: string) => iso.slice(0, 19).replace('T', ' ');

/** Reviews per star, index 0 for 1 star. */
type Stars = [number, number, number, number, number];

function starsOf(reviews: readonly ReviewRecord[]): Stars {
  const stars: Stars = [0, 0, 0, 0, 0];
  for (const review of reviews) stars[review.rating - 1] = (stars[review.rating - 1] ?? 0) + 1;
  return stars;
}

function reply(reviews: ReviewRecord[], stars: Stars = starsOf(reviews)): Reply {
  const distribution: Record<string, number> = {};
  let total = 0;
  let sum = 0;
  stars.forEach((count, index) => {
    distribution[String(index + 1)] = count;
    total += count;
    sum += count * (index + 1);
  });
  // ISO dates order as strings: no Date.parse per comparison.
  const newest = [...reviews].sort((a, b) =>
    a.date_reviewed === b.date_reviewed ? b.id - a.id : a.date_reviewed < b.date_reviewed ? 1 : -1,
  );
  return json(200, {
    ratings: {
      total,
      average: total === 0 ? 0 : Math.round((sum / total) * 100) / 100,
      distribution,
    },
    reviews: newest.slice(0, MAX_REVIEWS).map((review) => ({
      id: String(review.id),
      c: review.name,
      r: review.rating,
      txt: review.text,
      date: providerDate(review.date_reviewed),
      odate: providerDate(review.date_created),
      reply: null,
      rdate: null,
      lang: 'fr',
    })),
  });
}

function facts(db: DatabaseSync, where: string, ...args: number[]): ProductFacts[] {
  const rows = db.prepare(`SELECT base FROM products WHERE ${where}`).all(...args) as unknown as {
    base: string;
  }[];
  return rows.map((row) => JSON.parse(row.base) as ProductFacts);
}

const siteReplies = new WeakMap<DatabaseSync, { version: number; reply: Reply }>();

/**
 * The site's reply, drawn again only when the database changed: two indexed reads, the sums
 * of the visible products' stars and the 100 newest visible products.
 */
function siteReply(db: DatabaseSync): Reply {
  const version = changeCount(db);
  const kept = siteReplies.get(db);
  if (kept?.version === version) return kept.reply;
  const sums = db
    .prepare(
      `SELECT TOTAL(rated_1) AS s1, TOTAL(rated_2) AS s2, TOTAL(rated_3) AS s3,
       TOTAL(rated_4) AS s4, TOTAL(rated_5) AS s5 FROM products WHERE is_visible = 1`,
    )
    .get() as { s1: number; s2: number; s3: number; s4: number; s5: number };
  const latest = facts(db, 'is_visible = 1 ORDER BY date_created DESC, id ASC LIMIT 100');
  const fresh = reply(
    latest.flatMap((product) => productReviews(product)),
    [sums.s1, sums.s2, sums.s3, sums.s4, sums.s5],
  );
  siteReplies.set(db, { version, reply: fresh });
  return fresh;
}

/** The provider's API; undefined when the path is not one of its routes. */
export function handleGuaranteedReviews(
  db: DatabaseSync,
  method: string,
  url: URL,
): Reply | undefined {
  if (url.pathname === WIDGET_PATH) return widget(db, url);
  if (!url.pathname.startsWith(API_PREFIX)) return undefined;
  if (method !== 'GET' && method !== 'HEAD') return json(405, { error: 'Method not allowed' });
  const [siteKey, what, ...rest] = url.pathname.slice(API_PREFIX.length).split('/');
  if (siteKey === undefined || !SITE_KEY.test(siteKey) || what === undefined || rest.length > 0) {
    return json(404, { error: 'Not found' });
  }
  if (what === 'site') return siteReply(db);
  if (!/^[1-9]\d{0,9}$/.test(what)) return json(404, { error: 'Not found' });
  const [product] = facts(db, 'id = ?', Number(what));
  if (product === undefined) return json(404, { error: 'Product not found' });
  return reply(productReviews(product));
}

/** A plain page with the latest reviews, standing in for the provider's carousel. */
function widget(db: DatabaseSync, url: URL): Reply {
  const id = url.searchParams.get('id') ?? '';
  const latest = facts(db, 'is_visible = 1 ORDER BY id LIMIT 20')
    .flatMap((product) => productReviews(product))
    .sort((a, b) => Date.parse(b.date_reviewed) - Date.parse(a.date_reviewed))
    .slice(0, 6);
  const items = latest
    .map(
      (review) =>
        `<li><strong>${'★'.repeat(review.rating)}</strong> ${escapeHtml(review.title)} — ${escapeHtml(review.name)}</li>`,
    )
    .join('');
  return html(
    200,
    `<!doctype html><html lang="fr"><meta charset="utf-8"><title>Avis garantis</title><body data-widget-id="${escapeHtml(id)}" style="font-family:sans-serif;margin:0;padding:8px"><ul style="list-style:none;margin:0;padding:0;display:flex;gap:16px;overflow-x:auto">${items}</ul></body></html>`,
  );
}
