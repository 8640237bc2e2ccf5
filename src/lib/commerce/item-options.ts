/**
 * spec §9 "Boolean strings 'Yes' and 'No' are used in item options": a checkbox option of
 * BigCommerce (a product modifier) has the two values 'Yes' and 'No', and a cart or order line
 * names the chosen one in English. The shop shows them in French through the message file
 * (keys 'Yes' and 'No', spec §9 text as the key: "Oui", "Non"), and sends the chosen value with
 * every write of the line (add, quantity change, login merge) so that no write drops it. Pure.
 */
import type { CartLineItem, OptionValue, ProductModifier } from './types.ts';

export type BooleanOptionValue = 'Yes' | 'No';

/** 'Yes' or 'No' when an option value is one of the boolean strings (any case, trimmed), else null. */
export function booleanOptionValue(value: string): BooleanOptionValue | null {
  const text = value.trim().toLowerCase();
  return text === 'yes' ? 'Yes' : text === 'no' ? 'No' : null;
}

/** An option value as shown: the boolean strings translated, anything else as it is. */
export function optionValueText(
  value: string,
  translate: (key: BooleanOptionValue) => string,
): string {
  const boolean = booleanOptionValue(value);
  return boolean === null ? value : translate(boolean);
}

/** Message keys `optionValueText` may ask for. */
export const BOOLEAN_OPTION_MESSAGES = ['Yes', 'No'] as const;

/**
 * The variant's label for `item_variant`: its option values in order ("160x200",
 * "160x200 / Gris"); undefined for a product without options. Never the SKU: a marketer
 * reads sizes, not references.
 */
export function variantLabel(
  variant: { optionValues: readonly Pick<OptionValue, 'label'>[] } | null | undefined,
): string | undefined {
  const label = (variant?.optionValues ?? [])
    .map((value) => value.label.trim())
    .filter((value) => value !== '')
    .join(' / ');
  return label === '' ? undefined : label;
}

/**
 * A cart or order line's variant label: its option values but the checkbox modifiers' ('Yes'
 * / 'No', which make no variant), as `variantLabel` gives for the same variant.
 */
export function lineVariantLabel(values: readonly string[]): string | undefined {
  return variantLabel({
    optionValues: values
      .filter((value) => booleanOptionValue(value) === null)
      .map((value) => ({ label: value })),
  });
}

/** An option selection of a cart write (BigCommerce `option_selections`, camelCase). */
export interface OptionSelection {
  optionId: number;
  optionValue: number;
}

/** Whether a checkbox modifier is ticked: the shopper's choice, else its default. */
export function isTicked(
  modifier: ProductModifier,
  ticked: Readonly<Record<number, boolean>>,
): boolean {
  return ticked[modifier.id] ?? modifier.checkedByDefault;
}

/**
 * The selections of a product's checkbox modifiers for an add to cart: each one's 'Yes' value
 * when ticked, its 'No' value when not (a line always says which, spec §9).
 */
export function modifierSelections(
  modifiers: readonly ProductModifier[],
  ticked: Readonly<Record<number, boolean>>,
): OptionSelection[] {
  return modifiers.map((modifier) => ({
    optionId: modifier.id,
    optionValue: isTicked(modifier, ticked) ? modifier.checkedValueId : modifier.uncheckedValueId,
  }));
}

/**
 * The checkbox choices a cart line holds, as selections to write it again: the options whose
 * value is a boolean string and whose value id the cart gave. A variant's own options are not
 * repeated: its variant id says them.
 */
export function lineModifierSelections(item: Pick<CartLineItem, 'options'>): OptionSelection[] {
  return item.options.flatMap((option) =>
    booleanOptionValue(option.value) !== null && option.valueId !== null && option.nameId > 0
      ? [{ optionId: option.nameId, optionValue: option.valueId }]
      : [],
  );
}
