/** The shop's feature flags (spec §1, §6) as the pure rules of `lib/commerce/features.ts` take them. */
import { FEATURE_RESELLER_AREA, FEATURE_REVIEWS, FEATURE_TRANSACTIONAL } from 'astro:env/client';
import type { Features } from '../../lib/commerce/features.ts';

export const SHOP_FEATURES: Features = Object.freeze({
  transactional: FEATURE_TRANSACTIONAL,
  reviews: FEATURE_REVIEWS,
  resellerArea: FEATURE_RESELLER_AREA,
});
