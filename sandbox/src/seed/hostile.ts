/**
 * The hostile catalogue: a product, a category and a banner whose HTML holds the
 * usual stored-XSS payloads, as a compromised back office or a careless import would send them.
 * Seeded only with the sandbox's `hostile` option (`SANDBOX_HOSTILE=1`, which `npm test`'s
 * TEST_ENV sets), so the browser tests build pages from it and `npm start`'s shop stays clean.
 *
 * Each payload, if it ran, would call `alert(<id>)` or request `/xss/<id>...`: the browser test
 * (`tests/e2e/hostile-catalogue.spec.ts`) listens for both, first on the raw HTML (to prove the
 * payloads are live) and then on the shop's pages (where none may run).
 */
import type { CatalogueSkeleton, IdCounters, LeafCategory } from './products.ts';
import { buildProduct } from './products.ts';
import { createRandom } from './random.ts';
import type { BannerRecord, CategoryRecord, ProductRecord } from './types.ts';

/** How a payload is set off: on load, on hover, on a click. */
export type HostileTrigger = 'load' | 'hover' | 'click';

export interface HostilePayload {
  id: number;
  what: string;
  html: string;
  trigger: HostileTrigger;
  /** Whether Chromium runs it in a page with neither sanitiser nor CSP (checked by the test). */
  live: boolean;
}

export const HOSTILE_PAYLOADS: readonly HostilePayload[] = [
  { id: 1, what: 'script element', html: '<script>alert(1)</script>', trigger: 'load', live: true },
  { id: 2, what: 'img onerror', html: '<img src=x onerror=alert(2)>', trigger: 'load', live: true },
  {
    id: 3,
    what: 'javascript: link',
    html: '<a href="javascript:alert(3)">lien 3</a>',
    trigger: 'click',
    live: true,
  },
  {
    id: 4,
    what: 'mixed-case scheme',
    html: '<a href="JaVaScRiPt:alert(4)">lien 4</a>',
    trigger: 'click',
    live: true,
  },
  {
    id: 5,
    what: 'tab inside the scheme',
    html: '<a href="java&#x09;script:alert(5)">lien 5</a>',
    trigger: 'click',
    live: true,
  },
  {
    id: 6,
    what: 'entity-encoded scheme',
    html: '<a href="&#106;avascript:alert(6)">lien 6</a>',
    trigger: 'click',
    live: true,
  },
  {
    id: 7,
    what: 'iframe srcdoc',
    html: '<iframe srcdoc="&lt;script&gt;alert(7)&lt;/script&gt;"></iframe>',
    trigger: 'load',
    live: true,
  },
  {
    id: 8,
    what: 'iframe javascript: src',
    html: '<iframe src="javascript:alert(8)"></iframe>',
    trigger: 'load',
    live: true,
  },
  { id: 9, what: 'svg onload', html: '<svg onload=alert(9)></svg>', trigger: 'load', live: true },
  {
    id: 10,
    what: 'script inside svg',
    html: '<svg><script>alert(10)</script></svg>',
    trigger: 'load',
    live: true,
  },
  {
    id: 11,
    what: 'svg javascript: link',
    html: '<svg width="120" height="30"><a href="javascript:alert(11)"><text x="0" y="20">lien 11</text></a></svg>',
    trigger: 'click',
    live: true,
  },
  {
    id: 12,
    what: 'details ontoggle',
    html: '<details open ontoggle=alert(12)><summary>détails 12</summary>contenu 12</details>',
    trigger: 'load',
    live: true,
  },
  {
    id: 13,
    what: 'data: link',
    html: '<a href="data:text/html,&lt;script&gt;alert(13)&lt;/script&gt;">lien 13</a>',
    trigger: 'click',
    // Chromium refuses top-level navigations to data: URLs.
    live: false,
  },
  {
    id: 14,
    what: 'MathML namespace confusion',
    html: '<math><style><img src=x onerror=alert(14)></style></math>',
    trigger: 'load',
    live: true,
  },
  {
    id: 15,
    what: 'object data',
    html: '<object data="data:text/html,&lt;script&gt;alert(15)&lt;/script&gt;"></object>',
    trigger: 'load',
    live: true,
  },
  {
    id: 16,
    what: 'embed src',
    html: '<embed src="data:text/html,&lt;script&gt;alert(16)&lt;/script&gt;">',
    trigger: 'load',
    live: true,
  },
  {
    id: 17,
    what: 'form with a javascript: action',
    html: '<form action="javascript:alert(17)"><button>envoyer 17</button></form>',
    trigger: 'click',
    live: true,
  },
  {
    id: 18,
    what: 'meta refresh',
    html: '<meta http-equiv="refresh" content="0;url=/xss/18">',
    trigger: 'load',
    live: true,
  },
  {
    id: 19,
    what: 'base href',
    html: '<base href="/xss/19/"><img src="b19.png" alt="">',
    trigger: 'load',
    live: true,
  },
  {
    id: 20,
    what: 'style @import',
    html: '<style>@import url("/xss/20.css");</style>',
    trigger: 'load',
    live: true,
  },
  {
    id: 21,
    what: 'link stylesheet and import',
    html: '<link rel="stylesheet" href="/xss/21.css"><link rel="import" href="/xss/21.html">',
    trigger: 'load',
    live: true,
  },
  {
    id: 22,
    what: 'style attribute',
    html: '<p style="background:url(/xss/22.png)">fond 22</p>',
    trigger: 'load',
    live: true,
  },
  {
    id: 23,
    what: 'onmouseover',
    html: '<p onmouseover="alert(23)">survol 23</p>',
    trigger: 'hover',
    live: true,
  },
  {
    id: 24,
    what: 'autofocus onfocus',
    html: '<input autofocus onfocus="alert(24)" aria-label="champ 24">',
    trigger: 'load',
    live: true,
  },
  {
    id: 25,
    what: 'video source onerror',
    html: '<video><source onerror="alert(25)"></video>',
    trigger: 'load',
    live: true,
  },
  {
    id: 26,
    what: 'noscript attribute breakout',
    html: '<noscript><p title="</noscript><img src=x onerror=alert(26)>"></noscript>',
    trigger: 'load',
    live: true,
  },
  {
    id: 27,
    what: 'template content',
    html: '<template><img src=x onerror=alert(27)></template>',
    trigger: 'load',
    // Template content is inert.
    live: false,
  },
  {
    id: 28,
    what: 'abruptly closed comment',
    html: '<!--><img src=x onerror=alert(28)>-->',
    trigger: 'load',
    live: true,
  },
  {
    id: 29,
    what: 'CDATA outside foreign content',
    html: '<![CDATA[><img src=x onerror=alert(29)>]]>',
    trigger: 'load',
    live: true,
  },
  {
    id: 30,
    what: 'external link opening a window',
    html: '<a href="https://evil.example/" target="_blank" rel="opener">lien externe 30</a>',
    trigger: 'load',
    live: false,
  },
];

/** All payloads, one after the other, between two harmless paragraphs. */
export const HOSTILE_HTML = [
  '<p>Texte <strong>piégé</strong> : chaque charge ci-dessous tenterait de s’exécuter.</p>',
  ...HOSTILE_PAYLOADS.map((payload) => payload.html),
  '<p>Fin du texte piégé.</p>',
].join('\n');

export const HOSTILE = {
  productId: 9001,
  productName: 'Échantillon piégé <img src=x onerror=alert(90)>',
  categoryId: 90,
  categoryName: 'Sélection piégée "><svg onload=alert(91)>',
  categoryUrl: '/accessoires/selection-piegee',
  bannerId: 90,
  brandName: 'Ouate & Lin',
} as const;

/** The hostile category, a child of `parent` (shown, so its page is built). */
export function hostileCategory(parent: CategoryRecord): CategoryRecord {
  return {
    id: HOSTILE.categoryId,
    parent_id: parent.id,
    name: HOSTILE.categoryName,
    description: HOSTILE_HTML,
    views: 1,
    sort_order: 99,
    // Empty: the pages derive their meta description from the description's text.
    page_title: '',
    search_keywords: '',
    meta_keywords: [],
    meta_description: '',
    layout_file: 'category.html',
    is_visible: true,
    default_product_sort: 'use_store_settings',
    image_url: '',
    custom_url: { url: HOSTILE.categoryUrl, is_customized: true },
  };
}

/**
 * The hostile product, in the hostile category only, built like the others (pictures, sizes)
 * with the payloads in its description and markup in its name and custom fields; never a best
 * seller nor on sale, so the home page lists do not pick it.
 */
export function hostileProduct(
  skeleton: CatalogueSkeleton,
  category: CategoryRecord,
  parentLeaf: LeafCategory,
): ProductRecord {
  const leaf: LeafCategory = {
    id: category.id,
    path: [category.parent_id, category.id],
    seed: { ...parentLeaf.seed, name: category.name, description: category.description },
    family: parentLeaf.family,
  };
  // Ids far above what any catalogue size uses.
  const counters: IdCounters = {
    variant: 5_000_001,
    option: 5_000_001,
    optionValue: 5_000_001,
    image: 5_000_001,
    customField: 5_000_001,
  };
  const product = buildProduct(
    {
      id: HOSTILE.productId,
      name: HOSTILE.productName,
      leaf,
      brandName: HOSTILE.brandName,
      extraCategories: [],
      isVisible: true,
      tracking: 'none',
    },
    skeleton.brandIdByName.get(HOSTILE.brandName) ?? 0,
    counters,
    createRandom(HOSTILE.productId),
    [],
  );
  const price = product.base.price;
  return {
    ...product,
    variants: product.variants.map((v) => ({ ...v, sale_price: null })),
    custom_fields: [
      ...product.custom_fields.filter((f) => !['labels', 'product_video'].includes(f.name)),
      { id: counters.customField++, name: 'labels', value: '<script>alert(92)</script>' },
      { id: counters.customField++, name: 'product_video', value: 'javascript:alert(93)' },
    ],
    base: {
      ...product.base,
      description: HOSTILE_HTML,
      meta_description: '',
      page_title: '',
      sale_price: 0,
      retail_price: 0,
      calculated_price: price,
      total_sold: 0,
      is_featured: false,
      related_products: [],
      search_keywords: '',
    },
  };
}

/** The hostile banner: visible, the newest, so the top bar of every page shows it. */
export function hostileBanner(): BannerRecord {
  return {
    id: HOSTILE.bannerId,
    name: 'Bannière piégée',
    content: HOSTILE_HTML,
    page: 'home_page',
    catorbrandid: 0,
    location: 'top',
    date_created: String(Math.floor(Date.UTC(2025, 5, 1, 9) / 1000)),
    date_type: 'always',
    date_from: '0',
    date_to: '0',
    visible: '1',
  };
}
