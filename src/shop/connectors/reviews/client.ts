/**
 * The guaranteed-reviews public API (spec §7; Société des Avis Garantis): `GET {base}/{siteId}/site`
 * (the site's rating) and `GET {base}/{siteId}/{productId}` (a product's), no authentication.
 * Replies are checked with zod (numbers may come as strings) and kept in memory per id
 * (spec §7) with a bounded size and a lifetime; concurrent reads of one id share one call, a
 * passing failure is retried once (`retryDelay`), and the last good reply is served a while
 * longer when the provider fails.
 */
import { z } from 'zod';
import type { RatingDistribution } from '../../../lib/commerce/types.ts';
import { createCache } from '../http/cache.ts';
import { createUpstreamClient, retryWait } from '../http/upstream-client.ts';
import { ServiceError } from '../http/upstream-error.ts';

/** Any failed call to the provider; code `HTTP_<status>`, TIMEOUT, NETWORK_ERROR or INVALID_RESPONSE. */
export class ReviewsError extends ServiceError {
  override readonly name = 'ReviewsError';
}

/** A number, or a string holding one (the provider's JSON is not strict about it). */
const numeric = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/)
    .transform(Number),
]);
const count = numeric.pipe(z.number().int().nonnegative());

const RatingsSchema = z.object({
  total: count,
  average: numeric.pipe(z.number().min(0).max(5)),
  distribution: z.object({ 1: count, 2: count, 3: count, 4: count, 5: count }).partial().optional(),
});

// The provider writes dates `YYYY-MM-DD HH:MM:SS`; anything not starting with a date is garbage.
const providerDate = z
  .string()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}/);
// A review without the shop's answer may carry null, nothing or '' (PHP-style): all read as null.
const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));

const ReviewSchema = z.object({
  id: z.union([z.string().min(1).max(64), z.number().int()]).transform(String),
  c: z.string().max(200),
  r: numeric.pipe(z.number().int().min(1).max(5)),
  txt: z.string().max(20_000),
  date: providerDate,
  reply: optionalText(20_000),
  rdate: optionalText(40),
});

const ReplySchema = z.object({
  ratings: RatingsSchema,
  reviews: z.array(ReviewSchema).max(1000).optional(),
});

/** A rating as the shop shows it (spec §3: average and total). */
export interface GuaranteedRating {
  average: number;
  total: number;
  distribution: RatingDistribution;
}

export interface GuaranteedReview {
  id: string;
  /** The reviewer's first name and initial. */
  author: string;
  rating: number;
  text: string;
  date: string;
  reply: string | null;
  replyDate: string | null;
}

/** A reply of the provider: the ratings and the reviews, newest first. */
export interface ProductReviews {
  ratings: GuaranteedRating;
  reviews: GuaranteedReview[];
}

type Reply = z.output<typeof ReplySchema>;

function toReviews(reply: Reply): ProductReviews {
  const d = reply.ratings.distribution ?? {};
  return {
    ratings: {
      average: reply.ratings.average,
      total: reply.ratings.total,
      distribution: { 1: d[1] ?? 0, 2: d[2] ?? 0, 3: d[3] ?? 0, 4: d[4] ?? 0, 5: d[5] ?? 0 },
    },
    reviews: (reply.reviews ?? []).map((r) => ({
      id: r.id,
      author: r.c,
      rating: r.r,
      text: r.txt,
      date: r.date,
      reply: r.reply,
      replyDate: r.rdate,
    })),
  };
}

export interface ReviewsClientOptions {
  /** `{base}` of `{base}/{siteId}/site`. */
  apiUrl: string;
  /** Per call, in ms (default 3 s: a rating never holds a build or a page long); within a request's budget, at most what is left of it. */
  timeout?: number;
  /** How long a reply is reused (default 10 min), and served when the provider fails (1 h more). */
  ttlMs?: number;
  graceMs?: number;
  /** Ids kept (default 500), least recently used out first. */
  maxEntries?: number;
  fetch?: (input: Request | URL | string, init?: RequestInit) => Promise<Response>;
  now?: () => number;
}

export interface ReviewsClient {
  /** The site's rating (`{base}/{siteId}/site`); null for a brand without a site id (no call). */
  getSiteRating(siteId: string | null): Promise<GuaranteedRating | null>;
  /** A product's ratings and reviews, newest first; null for a brand without a site id (no call). */
  getProductReviews(siteId: string | null, productId: number): Promise<ProductReviews | null>;
}

/**
 * Wait before retrying a failed read, or null when it is not retried: a 5xx or a dropped
 * connection after 300 ms, a 429 after its `Retry-After` (seconds; over the 1 s `maxWait`, not
 * retried).
 */
export const retryDelay = retryWait({
  retries: (status) => status === 429 || status >= 500,
  rateLimitHeaders: [{ name: 'Retry-After', unit: 's', maxDigits: 5 }],
  timeouts: false,
  backoff: () => 300,
  minWait: 0,
});

// A site key as the provider issues them: letters, digits, dashes (sent as one path segment).
const SITE_ID = /^[A-Za-z0-9-]{1,64}$/;

export function createReviewsClient(options: ReviewsClientOptions): ReviewsClient {
  const http = createUpstreamClient({
    service: 'Reviews',
    prefix: options.apiUrl,
    headers: { Accept: 'application/json' },
    timeout: options.timeout ?? 3_000,
    // One retry of a passing failure (a 5xx, a 429, a dropped connection), within the caller's
    // budget: a build would otherwise lose the rating for a blip. A timeout is not retried: a
    // provider that took 3 s will likely take them again, and the rating has its fallback.
    retry: { kind: 'wait', limit: 1, wait: retryDelay, maxWait: 1_000 },
    error: ReviewsError,
    httpError: (error, endpoint) => {
      const status = error.response.status;
      return new ReviewsError(`Reviews ${endpoint} failed with status ${String(status)}`, {
        code: `HTTP_${String(status)}`,
        status,
      });
    },
    secrets: [],
    fetch: options.fetch,
  });
  const cache = createCache<ProductReviews>({
    ttlMs: options.ttlMs ?? 10 * 60_000,
    graceMs: options.graceMs ?? 60 * 60_000,
    maxEntries: options.maxEntries ?? 500,
    ...(options.now === undefined ? {} : { now: options.now }),
  });

  const read = async (path: string) => toReviews(await http.get(path, ReplySchema));

  const get = (siteId: string | null, id: string): Promise<ProductReviews | null> => {
    if (siteId === null) return Promise.resolve(null);
    if (!SITE_ID.test(siteId)) {
      return Promise.reject(
        new ReviewsError('Reviews site id is not a provider key', { code: 'INVALID', status: 500 }),
      );
    }
    const path = `${siteId}/${id}`;
    return cache.get(path, () => read(path));
  };

  const site = (siteId: string | null) => get(siteId, 'site');
  const product = (siteId: string | null, productId: number) => {
    if (!Number.isSafeInteger(productId) || productId <= 0) {
      return Promise.reject(
        new ReviewsError('Reviews product id must be a positive integer', {
          code: 'INVALID',
          status: 500,
        }),
      );
    }
    return get(siteId, String(productId));
  };

  return {
    getSiteRating: async (siteId) => (await site(siteId))?.ratings ?? null,
    getProductReviews: product,
  };
}
