/**
 * The product card's add-to-cart button (spec §2 catalogue UI, §4, §9): what it adds, read
 * back from the data the page wrote on it, its texts, read from the page's messages, and what
 * it shows in each phase. The button is static markup (`CardAddToCart.astro`); one script per
 * page (`card-add-to-cart.ts`) runs every card's button from these rules, where each card used
 * to hydrate a React island of its own (up to 20 roots on a listing page, and as many renders
 * at build).
 */
import { readJsonRecord } from '../script-json.ts';
import type { AnalyticsItem } from '../analytics/datalayer.ts';

/** Message keys a card's button shows once clicked (its idle label is rendered at build). */
export const CARD_BUTTON_MESSAGES = [
  'cart.adding',
  'cart.added',
  'Added to cart',
  'cart.viewCart',
  'cart.error.add',
  // spec §8 stock messages of a refused add (ADD_ERROR_MESSAGES of stores/add-to-cart.ts).
  'Out of stock',
  'The selected quantity exceeds available stock.',
  'Currently unavailable',
  // The units left after a refused add (ADD_LEFT_MESSAGE of stores/add-to-cart.ts).
  'cart.stock.addLeft',
  // An add that got no reply offline (OFFLINE_MESSAGE of lib/api/client.ts).
  'offline.action',
] as const;

export type CardButtonMessages = Record<(typeof CARD_BUTTON_MESSAGES)[number], string>;

/**
 * What a card's button carries as the JSON of its `data-add-to-cart` attribute: what the
 * click adds (the product's default variant) and the fields of its GA4 item that are neither
 * the id nor the name (its price in euros, the variant's label, e.g. "160x200"). The name is the card's title;
 * the texts a click shows are the page's, written once (the page's messages,
 * `CARD_BUTTON_MESSAGES` among them), not on each of the 20 buttons of a listing.
 */
export interface CardButtonAttribute {
  productId: number;
  variantId: number;
  price: number;
  /** The variant's label (GA4 item_variant), never its SKU. */
  variant?: string;
}

/** What a card's button adds, read back from its attribute. */
export interface CardButtonData {
  productId: number;
  variantId: number;
  name: string;
  /** The GA4 item pushed with add_to_cart (spec §9), quantity 1. */
  item: AnalyticsItem;
}

export type CardButtonPhase = 'idle' | 'adding' | 'added';

const isId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const isText = (value: unknown, max = 500): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max;
/** The attribute of a card adding `variantId` of `productId`, whose GA4 item is `item`. */
export function cardButtonAttribute(
  productId: number,
  variantId: number,
  item: Pick<AnalyticsItem, 'price' | 'item_variant'>,
): CardButtonAttribute {
  const attribute: CardButtonAttribute = { productId, variantId, price: item.price };
  if (item.item_variant !== undefined) attribute.variant = item.item_variant;
  return attribute;
}

/**
 * The button's data, from the JSON of its `data-add-to-cart` attribute and the card's title
 * (`name`); null when either is missing, or the JSON is not the shape the card writes (a page
 * edited by hand, an extension): such a button adds nothing rather than something else. Its
 * GA4 item is the product's own: its id is the button's, its name the card's.
 */
export function parseCardButton(
  raw: string | null | undefined,
  name: string | null | undefined,
): CardButtonData | null {
  const value = readJsonRecord(raw, 2_000);
  if (value === null) return null;
  const { productId, variantId, price, variant } = value;
  name = name?.trim();
  if (!isId(productId) || !isId(variantId) || !isText(name)) return null;
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) return null;
  if (variant !== undefined && !isText(variant)) return null;
  const item: AnalyticsItem = { item_id: String(productId), item_name: name, price, quantity: 1 };
  if (variant !== undefined) item.item_variant = variant;
  return { productId, variantId, name, item };
}

/**
 * The texts of the card buttons from the page's messages (`pageMessages`); null when one is
 * missing or empty: the buttons then add nothing rather than show message keys.
 */
export function cardButtonMessages(
  messages: Readonly<Record<string, string>>,
): CardButtonMessages | null {
  const texts: Partial<CardButtonMessages> = {};
  for (const key of CARD_BUTTON_MESSAGES) {
    const text = messages[key];
    if (!isText(text)) return null;
    texts[key] = text;
  }
  return texts as CardButtonMessages;
}

/**
 * What the button shows in a phase: the label, the accessible name (the idle one, rendered
 * at build, names the product; null keeps it), and whether it is disabled (while adding, and
 * while any cart action runs, spec §4).
 */
export function cardButtonView(
  phase: CardButtonPhase,
  messages: CardButtonMessages,
  cartLoading: boolean,
): { label: string | null; keepAccessibleName: boolean; disabled: boolean } {
  return {
    label:
      phase === 'adding'
        ? messages['cart.adding']
        : phase === 'added'
          ? messages['cart.added']
          : null,
    keepAccessibleName: phase === 'idle',
    disabled: cartLoading || phase === 'adding',
  };
}
