/**
 * spec §9 "Boolean strings 'Yes' and 'No' are used in item options": a checkbox option of
 * BigCommerce (a product modifier) has the two values 'Yes' and 'No', and a cart or order line
 * names the chosen one in English. The shop shows them in French through the message file
 * (keys 'Yes' and 'No', spec §9 text as the key: "Oui", "Non"). Pure.
 */

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
