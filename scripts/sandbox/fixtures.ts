/**
 * Notable records of the sandbox seed, for tests. The seed is deterministic: these ids hold for
 * every data dir and for every catalogue size (generated products come after them).
 * `tests/integration/sandbox.test.ts` checks each of them against a running sandbox.
 */
export const SANDBOX_TOKEN = 'sandbox-token';

/** Number of hand-written products (ids 101 to 261). */
export const SEED_PRODUCT_COUNT = 161;

export const PRODUCTS = {
  /** is_price_hidden true, price_hidden_label 'Prix sur demande en magasin'. */
  priceHidden: 102,
  /** Colour swatch option with 10 values (spec §2: 4 swatches then '+N'). */
  manyColours: 197,
  /** inventory_tracking 'none'. */
  trackingNone: 151,
  /** inventory_tracking 'product'. */
  trackingProduct: 179,
  /** inventory_tracking 'variant', with a sale price. */
  trackingVariant: 101,
  /** Retired model: is_visible false, custom_url '/matelas-confort-ancien-modele'. */
  retired: 261,
  /** Target of the redirect from '/matelas-confort-ancien-modele'. */
  redirectTarget: 122,
} as const;

export const CATEGORIES = {
  /** Root 'Matelas', url '/matelas'. */
  matelas: 20,
  /** Depth 3: Matelas > Matelas ressorts > Ressorts ensachés. */
  ressortsEnsaches: 22,
  /** 'Ventes privées': is_visible true but metafield shop/hide-category = 'true'. */
  hiddenByMetafield: 58,
  /** 'Déstockage': is_visible false. */
  notVisible: 59,
} as const;

export const BRANDS = {
  /** 'Dormelune', custom_url '/marque/dormelune'. */
  dormelune: 40,
} as const;

/** Metafield that hides a category from the navigation (spec §5). */
export const HIDE_CATEGORY_METAFIELD = {
  namespace: 'shop',
  key: 'hide-category',
  value: 'true',
} as const;

/**
 * A hostile entry of the redirect list (issue 7): a `javascript:` to_url, which the shop must
 * never send as a `Location`.
 */
export const HOSTILE_REDIRECT = {
  fromPath: '/lien-piege',
  toUrl: 'javascript:alert(document.cookie)',
} as const;

/** The redirect used by the `/p/{id}/...` rule (spec §2): from_path is a product slug. */
export const P_RULE_REDIRECT = {
  id: 1,
  fromPath: '/matelas-confort-ancien-modele',
  toType: 'product',
  toEntityId: PRODUCTS.redirectTarget,
} as const;

export const CHANNEL_ID = 1;
export const SITE_ID = 1000;

/**
 * Customers of the seed (passwords in clear for tests; stored hashed with scrypt). Form field
 * names are spec §3's; order ids are v2 order ids.
 */
export const CUSTOMERS = {
  /** Marie Martin: 2 addresses, 4 orders (Completed, Shipped with a tracked shipment, Cancelled, Awaiting Fulfillment). */
  marie: {
    id: 1,
    email: 'marie.martin@example.fr',
    password: 'Sommeil2024',
    firstName: 'Marie',
    lastName: 'Martin',
    addressIds: [1, 2],
    orders: {
      /** status 10, 2025-01-15, one shipment. */
      completed: 100,
      /** status 2, 2025-03-02, shipment with Colissimo tracking 6A12345678901. */
      shipped: 101,
      /** status 5, 2025-04-10. */
      cancelled: 102,
      /** status 11, 2025-06-20 (the newest). */
      awaitingFulfillment: 103,
    },
    /** Tracking number of the shipment of `orders.shipped`. */
    trackingNumber: '6A12345678901',
  },
  /** Paul Durand, reseller: form fields Revendeur 'oui', Nom de la boutique 'Literie du Centre'. */
  reseller: {
    id: 2,
    email: 'revendeur@example.fr',
    password: 'Revendeur2024',
    firstName: 'Paul',
    lastName: 'Durand',
    shopName: 'Literie du Centre',
    addressIds: [3],
    orders: {},
    sellers: ['Sophie Bernard'],
    accountingCode: 'C0042',
  },
  /** Claire Moreau, reseller 'Literie Atlantique' with three sellers. */
  resellerWithSellers: {
    id: 3,
    email: 'boutique@literie-atlantique.fr',
    password: 'Atlantique2024',
    firstName: 'Claire',
    lastName: 'Moreau',
    shopName: 'Literie Atlantique',
    sellers: ['Julien Petit', 'Emma Garnier', 'Lucas Roux'],
    accountingCode: 'C0107',
  },
  /** Hugo Lefebvre, a former reseller: Revendeur 'non', so a customer like any other. */
  formerReseller: {
    id: 4,
    email: 'ancien.revendeur@example.fr',
    password: 'Ancien2024',
    firstName: 'Hugo',
    lastName: 'Lefebvre',
  },
} as const;

/** The sandbox's Brevo API key. */
export const SANDBOX_BREVO_KEY = 'sandbox-brevo-key';

/**
 * The hostile catalogue (seeded with the `hostile` option, SANDBOX_HOSTILE=1): product, category
 * and banner ids and names, and the payloads their HTML holds (seed/hostile.ts).
 */
export { HOSTILE, HOSTILE_PAYLOADS } from './seed/hostile.ts';
