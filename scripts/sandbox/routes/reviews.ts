/**
 * GET /v3/catalog/products/{id}/reviews: reviews are not stored, they are derived from the
 * product (same seed, same reviews) so that their count and ratings add up to the product's
 * reviews_count and reviews_rating_sum.
 */
import { collection, pagination, paging, projectFields, v3Error, type Reply } from '../http.ts';
import { createRandom, isoDate } from '../seed/random.ts';
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

interface ProductFacts {
  id: number;
  reviews_count: number;
  reviews_rating_sum: number;
  date_created: string;
}

export interface ReviewRecord {
  id: number;
  product_id: number;
  title: string;
  text: string;
  status: 'approved';
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
  const random = createRandom(product.id * 7_919 + 17);
  const base = Math.floor(product.reviews_rating_sum / count);
  const ratings = Array.from(
    { length: count },
    (_, i) => base + (i < product.reviews_rating_sum % count ? 1 : 0),
  );
  // Spread the ratings without changing their sum: move a point from one review to another.
  for (let n = 0; n < count; n++) {
    const a = random.int(0, count - 1);
    const b = random.int(0, count - 1);
    const ra = ratings[a] ?? base;
    const rb = ratings[b] ?? base;
    if (a !== b && ra < 5 && rb > 1 && random.chance(0.3)) {
      ratings[a] = ra + 1;
      ratings[b] = rb - 1;
    }
  }
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

export function listReviews(ctx: RouteContext): Reply {
  const row = ctx.db
    .prepare('SELECT base FROM products WHERE id = ?')
    .get(Number(ctx.params.id)) as { base: string } | undefined;
  if (!row) return v3Error(404, 'The requested product was not found.');
  const paged = paging(ctx.query);
  const reviews = productReviews(JSON.parse(row.base) as ProductFacts);
  const items = reviews
    .slice(paged.offset, paged.offset + paged.limit)
    .map((r) => JSON.stringify(projectFields(r, ctx.query)));
  return collection(items, {
    pagination: pagination(ctx.query, paged, reviews.length, items.length),
  });
}
