/**
 * Product page island: the price, stock message and option pickers of the selected variant.
 * Renders only: the default variant (spec §4) and the price / stock view (spec §5, §8) come
 * from the pure rules; the selection is shared through `$productSelection`.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useMemo, useRef } from 'react';
import type { AnalyticsItem } from '../lib/analytics/datalayer.ts';
import { chosenVariantItem } from '../lib/analytics/page-json.ts';
import { maxQuantity } from '../lib/commerce/cart.ts';
import { setChosenItem } from '../lib/stores/chosen-item.ts';
import { formatPrice } from '../lib/commerce/money.ts';
import {
  tickedSelection,
  variantFromSearch,
  type TickedValue,
} from '../lib/commerce/variant-link.ts';
import {
  defaultVariant,
  STOCK_MESSAGE_KEYS,
  stockMessage,
  variantSelection,
} from '../lib/commerce/stock.ts';
import { isColourOption } from '../lib/commerce/swatches.ts';
import { showGallerySlide } from '../browser/catalogue/gallery-slide.ts';
import { imageKey } from '../lib/commerce/image-key.ts';
import { swatchBackground } from '../lib/commerce/swatch.ts';
import { isTicked, modifierSelections } from '../lib/commerce/item-options.ts';
import type { ProductOption } from '../lib/commerce/types.ts';
import {
  createTranslator,
  islandMessages,
  type Messages,
  type Translate,
} from '../lib/i18n/translate.ts';
import {
  $productSelection,
  selectionView,
  selectProductOptions,
  setModifierTicked,
  setSelectedQuantity,
  type PickerProduct,
} from '../lib/stores/product.ts';
import { ADD_TO_CART_MESSAGES, AddToCartButton } from './AddToCartButton.tsx';
import { CheckboxField } from './ui/TextField.tsx';
import { QuantitySelector } from './ui/QuantitySelector.tsx';

export interface VariantPickerProps {
  product: PickerProduct & { priceHiddenLabel: string; name: string };
  /**
   * The texts this island shows; by default `islandMessages`: the page writes them once with
   * IslandMessages.astro (id `VARIANT_PICKER_MESSAGES_ID`) rather than as props.
   */
  messages?: Messages;
  /**
   * The product's GA4 item (spec §9) of its default variant: add_to_cart sends it priced and
   * labelled as the chosen variant (`chosenVariantItem`). view_item is the page's (ProductView).
   */
  analyticsItem: AnalyticsItem;
  /** The quantity and add-to-cart (transactional flag on, spec §6). */
  addToCart?: boolean;
}

/** Id of the JSON script holding the picker's texts (ProductView.astro). */
export const VARIANT_PICKER_MESSAGES_ID = 'variant-picker-messages';

/** Message keys the picker shows (see `islandMessages` in translate.ts). */
export const VARIANT_PICKER_MESSAGES = [
  'price.hidden',
  'price.label',
  'price.special',
  'price.regular',
  ...Object.values(STOCK_MESSAGE_KEYS),
  ...ADD_TO_CART_MESSAGES,
  'cart.quantity',
  'cart.increase',
  'cart.decrease',
] as const;

const STATUS_TONE = {
  'in-stock': 'text-success',
  'low-stock': 'text-highlight',
  'out-of-stock': 'text-danger',
  'exceeds-stock': 'text-danger',
  unavailable: 'text-danger',
} as const;

export function VariantPicker({
  product,
  messages: given,
  analyticsItem,
  addToCart = false,
}: VariantPickerProps) {
  const messages = useMemo(
    () => given ?? islandMessages(VARIANT_PICKER_MESSAGES_ID, VARIANT_PICKER_MESSAGES),
    [given],
  );
  const t = useMemo(() => createTranslator(messages), [messages]);
  const initial = useMemo(() => {
    const variant = defaultVariant(product);
    return variant ? variantSelection(variant) : {};
  }, [product]);

  const stored = useStore($productSelection, { ssr: 'initial' });
  const current = stored?.productId === product.id ? stored : null;
  const options = current?.options ?? initial;
  const quantity = current?.quantity ?? 1;
  const ticked = current?.ticked ?? {};
  const view = selectionView(product, options, quantity);
  const { regular, special, hidden } = view.price;
  const chosenItem = useMemo(
    () => chosenVariantItem(analyticsItem, view.variant, { regular, special, hidden }),
    [analyticsItem, view.variant, regular, special, hidden],
  );
  const chosenVariantId = view.variant?.id ?? null;
  const root = useRef<HTMLDivElement>(null);

  // The chosen variant's GA4 item, for the wishlist heart beside the island.
  useEffect(() => {
    setChosenItem({ productId: product.id, variantId: chosenVariantId, item: chosenItem });
  }, [product.id, chosenVariantId, chosenItem]);

  // Publish the default selection once mounted, so the add-to-cart island reads a variant
  // even before the shopper touches an option; a link naming a variant (`?variante=ID`, a
  // card of a size-filtered listing: offer.ts) opens on that one. The server rendered the
  // default (a pre-rendered page), so hydration renders it too and this effect switches.
  // An option or modifier the shopper ticked before the island hydrated stays ticked (React
  // keeps the DOM's checked state): it is read here, so the price follows what is shown.
  useEffect(() => {
    if ($productSelection.get()?.productId === product.id) return;
    const linked = variantFromSearch(product, window.location.search);
    const base = linked ? variantSelection(linked) : initial;
    const chosen = tickedSelection(product, base, initial, tickedOptions(root.current));
    const first = selectionView(product, chosen);
    selectProductOptions(product.id, chosen, first.variant?.id ?? null);
    for (const modifier of product.modifiers) {
      const box = root.current?.querySelector<HTMLInputElement>(
        `input[name="modifier-${String(modifier.id)}"]`,
      );
      if (box && box.checked !== isTicked(modifier, {}))
        setModifierTicked(modifier.id, box.checked);
    }
    const moved = Object.entries(chosen).some(([id, value]) => initial[Number(id)] !== value);
    if (moved && first.variant?.imageUrl) showGalleryImage(first.variant.imageUrl);
  }, [product, initial]);

  function choose(optionId: number, valueId: number) {
    const next = { ...options, [optionId]: valueId };
    const variant = selectionView(product, next).variant;
    selectProductOptions(product.id, next, variant?.id ?? null);
    if (variant?.imageUrl) showGalleryImage(variant.imageUrl);
  }

  return (
    <div ref={root} className="flex flex-col gap-5">
      <div aria-live="polite" aria-atomic="true" className="flex flex-col gap-1">
        <PriceLine product={product} view={view} t={t} />
        <p className={`text-sm font-medium ${STATUS_TONE[view.status]}`} data-stock={view.status}>
          {stockMessage(view.status, view.level, t)}
        </p>
      </div>
      {product.options.map((option) => (
        <OptionPicker
          key={option.id}
          option={option}
          selected={options[option.id]}
          onChoose={(valueId) => {
            choose(option.id, valueId);
          }}
        />
      ))}
      {product.modifiers.map((modifier) => (
        <CheckboxField
          key={modifier.id}
          name={`modifier-${String(modifier.id)}`}
          label={modifier.label}
          checked={isTicked(modifier, ticked)}
          onChange={(event) => {
            if (stored?.productId !== product.id) {
              selectProductOptions(product.id, options, view.variant?.id ?? null);
            }
            setModifierTicked(modifier.id, event.currentTarget.checked);
          }}
        />
      ))}
      {addToCart && (
        <div className="flex flex-wrap items-center gap-3">
          <QuantitySelector
            value={quantity}
            max={maxQuantity(view.level)}
            debounceMs={0}
            labels={{
              quantity: t('cart.quantity'),
              decrease: t('cart.decrease'),
              increase: t('cart.increase'),
            }}
            onCommit={setSelectedQuantity}
          />
          <AddToCartButton
            productId={product.id}
            variantId={view.variant?.id ?? null}
            optionSelections={modifierSelections(product.modifiers, ticked)}
            quantity={quantity}
            purchasable={view.purchasable && !product.isPriceHidden}
            name={product.name}
            analyticsItem={chosenItem}
            messages={messages}
            size="lg"
          />
        </div>
      )}
    </div>
  );
}

function PriceLine({
  product,
  view,
  t,
}: {
  product: VariantPickerProps['product'];
  view: ReturnType<typeof selectionView>;
  t: Translate;
}) {
  if (view.price.hidden) {
    return (
      <p className="text-lg font-semibold text-neutral-700">
        {product.priceHiddenLabel || t('price.hidden')}
      </p>
    );
  }
  const { regular, special } = view.price;
  return (
    <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
      {special === null ? (
        <span className="text-2xl font-semibold text-primary-900">
          <span className="sr-only">{t('price.label')} </span>
          {formatPrice(regular)}
        </span>
      ) : (
        <>
          <span className="text-2xl font-semibold text-sale">
            <span className="sr-only">{t('price.special')} </span>
            {formatPrice(special)}
          </span>
          <del className="text-base text-neutral-600">
            <span className="sr-only">{t('price.regular')} </span>
            {formatPrice(regular)}
          </del>
          {view.discount !== null && (
            <span className="rounded-full bg-sale px-2 py-0.5 text-sm font-semibold text-white">
              {view.discount}
            </span>
          )}
        </>
      )}
    </p>
  );
}

function OptionPicker({
  option,
  selected,
  onChoose,
}: {
  option: ProductOption;
  selected: number | undefined;
  onChoose: (valueId: number) => void;
}) {
  const id = useId();
  const chosen = option.values.find((value) => value.id === selected);
  const swatch = isColourOption(option) && option.values.some((v) => v.colors.length > 0);

  if (option.type === 'dropdown') {
    return (
      <div className="flex flex-col gap-2">
        <label htmlFor={`${id}-select`} className="text-sm font-semibold text-neutral-800">
          {option.displayName}
        </label>
        <select
          id={`${id}-select`}
          data-option-id={option.id}
          className="min-h-11 rounded-control border border-neutral-300 bg-white px-3 text-base"
          value={selected ?? ''}
          onChange={(event) => {
            onChoose(Number(event.currentTarget.value));
          }}
        >
          {option.values.map((value) => (
            <option key={value.id} value={value.id}>
              {value.label}
            </option>
          ))}
        </select>
      </div>
    );
  }

  return (
    <fieldset className="flex flex-col gap-2" data-option-id={option.id}>
      <legend className="mb-2 text-sm font-semibold text-neutral-800">
        {option.displayName}
        {chosen && <span className="font-normal text-neutral-700"> : {chosen.label}</span>}
      </legend>
      <div className="flex flex-wrap gap-2">
        {option.values.map((value) => {
          const inputId = `${id}-${value.id}`;
          const checked = value.id === selected;
          return (
            <span key={value.id} className="relative">
              <input
                type="radio"
                id={inputId}
                name={`${id}-option`}
                value={value.id}
                checked={checked}
                onChange={() => {
                  onChoose(value.id);
                }}
                className="peer absolute inset-0 size-full cursor-pointer opacity-0"
              />
              {swatch ? (
                <label
                  htmlFor={inputId}
                  title={value.label}
                  className="flex size-11 cursor-pointer items-center justify-center rounded-full border-2 border-transparent peer-checked:border-primary-800 peer-focus-visible:outline-2 peer-focus-visible:outline-primary-600"
                >
                  <span
                    aria-hidden="true"
                    className="size-8 rounded-full border border-neutral-300"
                    style={{ background: swatchBackground(value.colors) }}
                  />
                  <span className="sr-only">{value.label}</span>
                </label>
              ) : (
                <label
                  htmlFor={inputId}
                  className="flex min-h-11 min-w-11 cursor-pointer items-center justify-center rounded-control border border-neutral-300 bg-white px-3 text-sm text-neutral-800 peer-checked:border-primary-800 peer-checked:bg-primary-50 peer-checked:font-semibold peer-focus-visible:outline-2 peer-focus-visible:outline-primary-600"
                >
                  {value.label}
                </label>
              )}
            </span>
          );
        })}
      </div>
    </fieldset>
  );
}

/**
 * The option values the picker's controls show ticked (`data-option-id` on each option's
 * fieldset or select), as the browser holds them: read once as the island mounts.
 */
function tickedOptions(root: HTMLElement | null): TickedValue[] {
  if (!root) return [];
  const ticked: TickedValue[] = [];
  for (const control of root.querySelectorAll<HTMLElement>('[data-option-id]')) {
    const optionId = Number(control.dataset.optionId);
    const value =
      control instanceof HTMLSelectElement
        ? control.value
        : control.querySelector<HTMLInputElement>('input[type="radio"]:checked')?.value;
    const valueId = Number(value);
    if (Number.isSafeInteger(optionId) && value !== undefined && Number.isSafeInteger(valueId)) {
      ticked.push({ optionId, valueId });
    }
  }
  return ticked;
}

/**
 * Shows the chosen variant's picture in the page gallery (ProductGallery's slide of the same
 * picture), when the product has it; the gallery is static HTML, so this is a DOM lookup.
 */
function showGalleryImage(url: string): void {
  const key = imageKey(url);
  for (const gallery of document.querySelectorAll('[data-gallery]')) {
    const radios = [...gallery.querySelectorAll<HTMLInputElement>('input[data-image-key]')];
    const index = radios.findIndex((radio) => radio.dataset.imageKey === key);
    if (index >= 0) showGallerySlide(gallery, index);
  }
}
