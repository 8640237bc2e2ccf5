/**
 * /v3/catalog/products/{id}/reviews. The seeded reviews are not stored, they are derived from
 * the product (same seed, same reviews) so that their count and ratings add up to the
 * product's reviews_count and reviews_rating_sum; all approved. Reviews created with POST are
 * stored (status `pending` unless given) and listed after the derived ones.
 */
import { FIRST_STORED_REVIEW_ID } from '../db.ts';
import {
  collection,
  pagination,
  paging,
  projectFields,
  QueryError,
  single,
  v3Error,
  type Reply,
} from '../http.ts';
import { spreadRatings, type ProductFacts } from '../seed/ratings.ts';
import { isoDate } from '../seed/random.ts';
import { assertValid, EMAIL, int, objectBody, str, type Errors } from '../validate.ts';
import type { RouteContext } from './context.ts';

const TITLES: Record<number, readonly string[]> = {
  5: [
    'Parfait',
    'Je recommande vivement',
    'Enfin des nuits complètes',
    'Superbe qualité',
    'Un vrai coup de cœur',
  ],
  4: [
    'Très bon produit',
    'Conforme à la description',
    'Bon rapport qualité-prix',
    'Satisfaite de mon achat',
  ],
  3: ['Correct', 'Un peu déçu par la fermeté', 'Bien mais livraison longue'],
  2: ['Pas pour moi', 'Qualité moyenne'],
  1: ['Déçu', 'Retour en cours'],
};

const TEXTS: Record<number, readonly string[]> = {
  5: [
    'Livraison rapide et produit impeccable. Je dors beaucoup mieux depuis deux semaines.',
    'Les finitions sont soignées et le confort est au rendez-vous. Je rachèterai sans hésiter.',
    'Mon mal de dos a nettement diminué. Le service client a été très réactif.',
  ],
  4: [
    'Très bon confort, il a fallu quelques nuits pour s’habituer.',
    'Conforme à mes attentes, seule l’odeur au déballage a mis deux jours à partir.',
    'Belle qualité pour le prix, les coloris sont fidèles aux photos.',
  ],
  3: [
    'Produit correct mais un peu plus ferme que ce que j’imaginais.',
    'Le produit est bien, la livraison a pris une semaine de plus que prévu.',
  ],
  2: [
    'Le confort ne me convient pas, trop mou à mon goût.',
    'Les coutures ont lâché après quelques lavages.',
  ],
  1: ['Produit reçu abîmé, je l’ai renvoyé.', 'Ne correspond pas du tout à la description.'],
};

const NAMES = [
  'Camille',
  'Julien',
  'Sophie',
  'Thomas',
  'Léa',
  'Nicolas',
  'Chloé',
  'Antoine',
  'Manon',
  'Hugo',
];
const INITIALS = 'ABCDEFGHJLMNPRSTV';

export type ReviewStatus = 'approved' | 'disapproved' | 'pending';
const STATUSES: readonly ReviewStatus[] = ['approved', 'disapproved', 'pending'];
/**
 * `status` filter: not in the snapshot's catalog.v3.yml, documented by later BigCommerce
 * versions as 1 approved, 0 pending (2 disapproved here).
 */
const STATUS_FILTER: Record<string, ReviewStatus> = {
  '0': 'pending',
  '1': 'approved',
  '2': 'disapproved',
};

export interface ReviewRecord {
  id: number;
  product_id: number;
  title: string;
  text: string;
  status: ReviewStatus;
  rating: number;
  email: string;
  name: string;
  date_reviewed: string;
  date_created: string;
  date_modified: string;
}

/** The product's reviews, oldest first; ratings sum to reviews_rating_sum. */
export function productReviews(product: ProductFacts): ReviewRecord[] {
  const count = product.reviews_count;
  if (count === 0) return [];
  const { random, ratings } = spreadRatings(product);
  const start = Date.parse(product.date_created);
  const span = Math.max(1, Date.UTC(2025, 8, 1) - start);
  const dates = Array.from({ length: count }, () => start + Math.floor(random.next() * span)).sort(
    (x, y) => x - y,
  );
  return ratings.map((rating, index) => {
    const name = `${random.pick(NAMES)} ${INITIALS[random.int(0, INITIALS.length - 1)] ?? 'A'}.`;
    const date = isoDate(dates[index] ?? start);
    return {
      id: product.id * 1_000 + index + 1,
      product_id: product.id,
      title: random.pick(TITLES[rating] ?? TITLES[4] ?? []),
      text: random.pick(TEXTS[rating] ?? TEXTS[4] ?? []),
      status: 'approved',
      rating,
      email: `client${product.id}-${index + 1}@exemple.fr`,
      name,
      date_reviewed: date,
      date_created: date,
      date_modified: date,
    };
  });
}

function storedReviews(ctx: RouteContext, productId: number): ReviewRecord[] {
  const rows = ctx.db
    .prepare('SELECT doc FROM reviews WHERE product_id = ? ORDER BY id')
    .all(productId) as unknown as { doc: string }[];
  return rows.map((r) => JSON.parse(r.doc) as ReviewRecord);
}

export function listReviews(ctx: RouteContext): Reply {
  const productId = Number(ctx.params.id);
  const row = ctx.db.prepare('SELECT base FROM products WHERE id = ?').get(productId) as
    { base: string } | undefined;
  if (!row) return v3Error(404, 'The requested product was not found.');
  const paged = paging(ctx.query);
  const statusParam = ctx.query.string('status');
  let status: ReviewStatus | undefined;
  if (statusParam !== undefined) {
    status = STATUS_FILTER[statusParam] ?? STATUSES.find((candidate) => candidate === statusParam);
    if (!status) {
      throw new QueryError('status', 'status must be 0 (pending), 1 (approved) or 2 (disapproved)');
    }
  }
  const reviews = [
    ...productReviews(JSON.parse(row.base) as ProductFacts),
    ...storedReviews(ctx, productId),
  ].filter((r) => status === undefined || r.status === status);
  const items = reviews
    .slice(paged.offset, paged.offset + paged.limit)
    .map((r) => JSON.stringify(projectFields(r, ctx.query)));
  return collection(items, {
    pagination: pagination(ctx.query, paged, reviews.length, items.length),
  });
}

/** POST /v3/catalog/products/{id}/reviews (catalog.v3.yml): title and date_reviewed required; 200. */
export function createReview(ctx: RouteContext): Reply {
  const productId = Number(ctx.params.id);
  if (!ctx.db.prepare('SELECT 1 FROM products WHERE id = ?').get(productId)) {
    return v3Error(404, 'The requested product was not found.');
  }
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const title = str(body, 'title', errors, '', { required: true, min: 1, max: 255 });
  const text = str(body, 'text', errors) ?? '';
  const status = str(body, 'status', errors) ?? 'pending';
  if (!(STATUSES as readonly string[]).includes(status)) {
    errors.status = 'status must be one of approved, disapproved, pending';
  }
  const rating = int(body, 'rating', errors, '', { min: 0, max: 5 }) ?? 0;
  const email = str(body, 'email', errors) ?? '';
  if (email !== '' && !EMAIL.test(email))
    errors.email = 'email must be a valid email, or an empty string';
  const name = str(body, 'name', errors, '', { max: 255 }) ?? '';
  const reviewed = str(body, 'date_reviewed', errors, '', { required: true, min: 1 });
  if (reviewed !== undefined && Number.isNaN(Date.parse(reviewed))) {
    errors.date_reviewed = 'date_reviewed must be a date-time';
  }
  assertValid(errors);
  const last = ctx.db.prepare('SELECT MAX(id) AS id FROM reviews').get() as { id: number | null };
  const id = Math.max(FIRST_STORED_REVIEW_ID, (last.id ?? 0) + 1);
  const now = isoDate(Date.now());
  const review: ReviewRecord = {
    id,
    product_id: productId,
    title: title ?? '',
    text,
    status: status as ReviewStatus,
    rating,
    email,
    name,
    date_reviewed: isoDate(Date.parse(reviewed ?? now)),
    date_created: now,
    date_modified: now,
  };
  ctx.db.prepare('INSERT INTO reviews VALUES (?, ?, ?)').run(id, productId, JSON.stringify(review));
  return single(200, review);
}
