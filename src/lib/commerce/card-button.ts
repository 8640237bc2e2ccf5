/**
 * The product card's add-to-cart button (spec §2 catalogue UI, §4, §9): what it adds, read
 * back from the data the page wrote on it, and what it shows in each phase. The button is
 * static markup (`CardAddToCart.astro`); one script per page (`card-add-to-cart.ts`) runs
 * every card's button from these rules, where each card used to hydrate a React island of its
 * own (up to 20 roots on a listing page, and as many renders at build).
 */
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
] as const;

export type CardButtonMessages = Record<(typeof CARD_BUTTON_MESSAGES)[number], string>;

/** What a card's button adds: the product's default variant, one unit. */
export interface CardButtonData {
  productId: number;
  variantId: number;
  name: string;
  /** The GA4 item pushed with add_to_cart (spec §9), quantity 1. */
  item: AnalyticsItem;
  messages: CardButtonMessages;
}

export type CardButtonPhase = 'idle' | 'adding' | 'added';

const isId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const isText = (value: unknown, max = 500): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function analyticsItem(value: unknown): AnalyticsItem | null {
  if (!isRecord(value)) return null;
  const { item_id, item_name, price, quantity } = value;
  if (!isText(item_id, 64) || !isText(item_name)) return null;
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) return null;
  if (quantity !== 1) return null;
  const item: AnalyticsItem = { item_id, item_name, price, quantity };
  for (const key of ['item_brand', 'item_variant', 'item_list_name'] as const) {
    const text = value[key];
    if (text === undefined) continue;
    if (!isText(text)) return null;
    item[key] = text;
  }
  return item;
}

/**
 * The button's data, from the JSON of its `data-add-to-cart` attribute; null when it is
 * missing, not JSON or not the shape the card writes (a page edited by hand, an extension):
 * such a button adds nothing rather than something else.
 */
export function parseCardButton(raw: string | null | undefined): CardButtonData | null {
  if (raw === null || raw === undefined || raw.length > 10_000) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const { productId, variantId, name, messages } = value;
  if (!isId(productId) || !isId(variantId) || !isText(name)) return null;
  const item = analyticsItem(value.item);
  // Its item is the product's own (a card's GA4 item never names another product).
  if (item?.item_id !== String(productId)) return null;
  if (!isRecord(messages)) return null;
  const texts: Partial<CardButtonMessages> = {};
  for (const key of CARD_BUTTON_MESSAGES) {
    const text = messages[key];
    if (!isText(text)) return null;
    texts[key] = text;
  }
  return { productId, variantId, name, item, messages: texts as CardButtonMessages };
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
