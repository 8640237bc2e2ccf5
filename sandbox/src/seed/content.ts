/** Store information, channel, banners and redirects of the sandbox (v2 store, v3 channels, redirects). */
import type { BannerRecord, RedirectRecord } from './types.ts';

export const STORE_DOMAIN = 'www.literie-lumiere.fr';
export const STORE_URL = `https://${STORE_DOMAIN}`;
export const CHANNEL_ID = 1;
export const SITE_ID = 1000;

/** GET /v2/store (store_information.v2.yml). `id` is the store hash. */
export function storeInformation(storeHash: string): Record<string, unknown> {
  return {
    id: storeHash,
    domain: STORE_DOMAIN,
    secure_URL: STORE_URL,
    control_panel_base_url: `https://store-${storeHash}.mybigcommerce.com`,
    status: 'live',
    name: 'Literie Lumière',
    first_name: 'Claire',
    last_name: 'Duvernay',
    address: 'Literie Lumière\n18 quai des Tisserands\n69002 Lyon\nFrance',
    country: 'France',
    country_code: 'FR',
    phone: '01 99 00 12 34',
    admin_email: 'administration@literie-lumiere.fr',
    order_email: 'commandes@literie-lumiere.fr',
    favicon_url: '',
    timezone: {
      name: 'Europe/Paris',
      raw_offset: 3600,
      dst_offset: 7200,
      dst_correction: true,
      date_format: { display: 'j M Y', export: 'd/m/Y', extended_display: 'j M Y @ H:i' },
    },
    language: 'fr',
    currency: 'EUR',
    currency_symbol: '€',
    decimal_separator: ',',
    thousands_separator: ' ',
    decimal_places: 2,
    currency_symbol_location: 'right',
    weight_units: 'kg',
    dimension_units: 'Centimeters',
    dimension_decimal_places: 2,
    dimension_decimal_token: ',',
    dimension_thousands_token: ' ',
    plan_name: 'Pro',
    plan_level: 'Pro',
    plan_is_trial: false,
    industry: 'Maison et décoration',
    logo: { url: '' },
    is_price_entered_with_tax: true,
    store_id: 1_009_876,
    default_site_id: SITE_ID,
    default_channel_id: CHANNEL_ID,
    active_comparison_modules: [],
    features: {
      stencil_enabled: false,
      sitewidehttps_enabled: true,
      facebook_catalog_id: '',
      checkout_type: 'optimized',
      wishlists_enabled: true,
      graphql_storefront_api_enabled: true,
      shopper_consent_tracking_enabled: true,
      multi_storefront_enabled: false,
    },
  };
}

/** GET /v3/channels/{id} data (channels.v3.yml); `currencies` is added on include=currencies. */
export function channel(): Record<string, unknown> {
  return {
    id: CHANNEL_ID,
    name: 'Literie Lumière',
    type: 'storefront',
    platform: 'bigcommerce',
    date_created: '2022-01-10T09:00:00Z',
    date_modified: '2025-02-03T14:22:10Z',
    external_id: '',
    is_listable_from_ui: true,
    is_enabled: true,
    is_visible: true,
    status: 'active',
    icon_url: '',
    config_meta: { app: { id: 0, sections: [] } },
  };
}

export function channelCurrencies(): Record<string, unknown> {
  return { channel_id: CHANNEL_ID, enabled_currencies: ['EUR'], default_currency: 'EUR' };
}

export interface RedirectTargets {
  productUrl(name: string): { id: number; url: string };
  categoryUrl(name: string): { id: number; url: string };
  brandUrl(name: string): { id: number; url: string };
}

/** 301 redirects of site 1000. The first one is the `/p/{id}/...` rule fixture (spec §2). */
export function redirects(targets: RedirectTargets): RedirectRecord[] {
  const list: Omit<RedirectRecord, 'id' | 'site_id'>[] = [];
  const toProduct = (from: string, name: string): void => {
    const target = targets.productUrl(name);
    list.push({
      from_path: from,
      to: { type: 'product', entity_id: target.id },
      to_url: STORE_URL + target.url,
    });
  };
  const toCategory = (from: string, name: string): void => {
    const target = targets.categoryUrl(name);
    list.push({
      from_path: from,
      to: { type: 'category', entity_id: target.id },
      to_url: STORE_URL + target.url,
    });
  };
  const toBrand = (from: string, name: string): void => {
    const target = targets.brandUrl(name);
    list.push({
      from_path: from,
      to: { type: 'brand', entity_id: target.id },
      to_url: STORE_URL + target.url,
    });
  };
  const toUrl = (from: string, url: string): void => {
    list.push({
      from_path: from,
      to: { type: 'url', url },
      to_url: url.startsWith('/') ? STORE_URL + url : url,
    });
  };
  toProduct('/matelas-confort-ancien-modele', 'Matelas Horizon');
  toProduct('/oreiller-ergonomique-v1', 'Oreiller Ergonomique');
  toProduct('/housse-de-couette-lin', 'Housse de couette Lin Lavé');
  toCategory('/matelas-a-ressorts', 'Matelas ressorts');
  toCategory('/literie-bebe', 'Matelas enfant');
  toCategory('/linge', 'Linge de lit');
  toBrand('/dormelune', 'Dormelune');
  toBrand('/marques/plumes-de-provence', 'Plumes de Provence');
  toUrl('/soldes', '/matelas/matelas-hybrides');
  toUrl('/guide-du-sommeil', 'https://aide.literie-lumiere.fr/hc/fr/guide-du-sommeil');
  // A hostile entry (fixtures.ts HOSTILE_REDIRECT): upstream data is not trusted.
  toUrl('/lien-piege', 'javascript:alert(document.cookie)');
  return list.map((r, index) => ({ id: index + 1, site_id: SITE_ID, ...r }));
}

/** GET /v2/banners: `visible` is the string '1' or '0' (BigCommerce's API documentation). */
export function banners(categoryId: number, brandId: number): BannerRecord[] {
  const created = (day: number): string => String(Math.floor(Date.UTC(2025, 0, day, 9) / 1000));
  const base = { date_type: 'always', date_from: '0', date_to: '0' };
  return [
    {
      id: 1,
      name: 'Livraison offerte',
      content:
        '<p><strong>Livraison offerte</strong> dès 500 € d’achat, <a href="/matelas">découvrez nos matelas</a>.</p>',
      page: 'home_page',
      catorbrandid: 0,
      location: 'top',
      date_created: created(6),
      ...base,
      visible: '1',
    },
    {
      id: 2,
      name: 'Soldes d’hiver (terminées)',
      content: '<p>Soldes d’hiver : jusqu’à <em>-50 %</em> sur une sélection de linge de lit.</p>',
      page: 'home_page',
      catorbrandid: 0,
      location: 'top',
      date_created: created(2),
      ...base,
      visible: '0',
    },
    {
      id: 3,
      name: 'Essai 100 nuits',
      content:
        '<div class="banner"><p>Essayez votre matelas <strong>100 nuits</strong> chez vous. Satisfait ou remboursé.</p></div>',
      page: 'category_page',
      catorbrandid: categoryId,
      location: 'top',
      date_created: created(12),
      ...base,
      visible: '1',
    },
    {
      id: 4,
      name: 'Atelier de la marque',
      content:
        '<p>Rencontrez nos artisans lors des <a href="/les-yeux-fermes">journées portes ouvertes</a>.</p>',
      page: 'brand_page',
      catorbrandid: brandId,
      location: 'bottom',
      date_created: created(20),
      ...base,
      visible: '1',
    },
    {
      id: 5,
      name: 'Newsletter',
      content:
        '<p>Inscrivez-vous à la lettre et recevez <strong>10 %</strong> sur votre première commande.</p>',
      page: 'home_page',
      catorbrandid: 0,
      location: 'bottom',
      date_created: created(25),
      date_type: 'custom',
      date_from: String(Math.floor(Date.UTC(2025, 1, 1) / 1000)),
      date_to: String(Math.floor(Date.UTC(2025, 11, 31) / 1000)),
      visible: '1',
    },
  ];
}
