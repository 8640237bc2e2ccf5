/**
 * A cart's line items as carts.v3.yml takes them: each line of a request parsed and resolved
 * against the catalogue (product, variant, option and modifier selections, list price), merged
 * with the cart's lines, and the quantities checked against stock and purchase limits.
 */
import { randomUUID } from 'node:crypto';
import { InvalidBody } from '../http.ts';
import type { ProductFacts } from '../model.ts';
import type { ModifierRecord, VariantRecord } from '../seed/types.ts';
import { int, isObject, num, str, type Errors, type Obj } from '../validate.ts';
import {
  type CartItemRecord,
  type ModifierSelection,
  sameModifiers,
  Products,
} from './cart-records.ts';

interface LineInput {
  product_id: number;
  variant_id: number | undefined;
  quantity: number;
  /** A value id, or a value's text ('Yes' / 'No' of a checkbox, carts.v3.yml's example). */
  option_selections: { option_id: number; option_value: number | string }[] | undefined;
  list_price: number | undefined;
}

export function parseLine(
  raw: unknown,
  path: string,
  errors: Errors,
  minQuantity = 1,
): LineInput | undefined {
  if (!isObject(raw)) {
    errors[path] = 'must be an object';
    return undefined;
  }
  const productId = int(raw, 'product_id', errors, path, { required: true });
  const variantId = int(raw, 'variant_id', errors, path);
  const quantity = int(raw, 'quantity', errors, path, { required: true, min: minQuantity });
  const listPrice = num(raw, 'list_price', errors, path, { min: 0 });
  let selections: LineInput['option_selections'];
  if (raw.option_selections !== undefined && raw.option_selections !== null) {
    if (!Array.isArray(raw.option_selections)) {
      errors[`${path}.option_selections`] = 'option_selections must be an array';
    } else {
      selections = [];
      raw.option_selections.forEach((s: unknown, i) => {
        const at = `${path}.option_selections.${i}`;
        if (!isObject(s)) {
          errors[at] = 'must be an object';
          return;
        }
        const optionId = int(s, 'option_id', errors, at, { required: true });
        const raw = s.option_value;
        const value =
          typeof raw === 'string' && !/^\s*-?\d+\s*$/.test(raw)
            ? str(s, 'option_value', errors, at, { min: 1, max: 255 })
            : int(s, 'option_value', errors, at, { required: true });
        if (optionId !== undefined && value !== undefined) {
          selections?.push({ option_id: optionId, option_value: value });
        }
      });
    }
  }
  if (productId === undefined || quantity === undefined) return undefined;
  return {
    product_id: productId,
    variant_id: variantId,
    quantity,
    option_selections: selections,
    list_price: listPrice,
  };
}

export function parseLines(body: Obj, errors: Errors): LineInput[] {
  const raw = body.line_items;
  if (!Array.isArray(raw) || raw.length === 0) {
    errors.line_items = 'line_items is required and must hold at least one item';
    return [];
  }
  const lines: LineInput[] = [];
  raw.forEach((item: unknown, index) => {
    const line = parseLine(item, `line_items.${index}`, errors);
    if (line) lines.push(line);
  });
  return lines;
}

/** Finds the product and variant of a line; throws 422 like upstream when they do not fit. */
export function resolveLine(
  products: Products,
  line: LineInput,
  path: string,
): { product: ProductFacts; variant: VariantRecord; modifiers: ModifierSelection[] | null } {
  const product = products.get(line.product_id);
  if (!product) {
    throw new InvalidBody(`Product ${line.product_id} does not exist.`, {
      [`${path}.product_id`]: 'product not found',
    });
  }
  const name = product.base.name;
  let variant: VariantRecord | undefined;
  if (line.variant_id !== undefined) {
    variant = product.variants.find((v) => v.id === line.variant_id);
    if (!variant) {
      throw new InvalidBody(
        `Variant ${line.variant_id} does not belong to product ${product.base.id}.`,
        {
          [`${path}.variant_id`]: 'variant not found on this product',
        },
      );
    }
  }
  // Modifier selections are read apart: they choose no variant.
  const modifierSelections = (line.option_selections ?? []).filter((selection) =>
    product.modifiers.some((m) => m.id === selection.option_id),
  );
  const modifiers = modifierSelections.length > 0 ? resolveModifiers(product, line, path) : null;
  const variantSelections = (line.option_selections ?? []).filter(
    (selection) => !modifierSelections.includes(selection),
  );
  if (variantSelections.length > 0) {
    for (const [i, selection] of variantSelections.entries()) {
      const option = product.options.find((o) => o.id === selection.option_id);
      if (!option) {
        throw new InvalidBody(
          `Option ${selection.option_id} does not belong to product ${product.base.id}.`,
          {
            [`${path}.option_selections.${i}.option_id`]: 'option not found on this product',
          },
        );
      }
      if (!option.option_values.some((v) => v.id === selection.option_value)) {
        throw new InvalidBody(
          `Option value ${String(selection.option_value)} is not a value of option ${option.display_name}.`,
          {
            [`${path}.option_selections.${i}.option_value`]: 'value not found on this option',
          },
        );
      }
    }
    const chosen = variantSelections;
    const matching = product.variants.filter((v) =>
      chosen.every((s) =>
        v.option_values.some((ov) => ov.option_id === s.option_id && ov.id === s.option_value),
      ),
    );
    if (variant) {
      if (!matching.includes(variant)) {
        throw new InvalidBody('The option selections do not match the variant.', {
          [`${path}.option_selections`]: 'options do not match variant_id',
        });
      }
    } else if (matching.length === 1) {
      variant = matching[0];
    }
  }
  if (!variant) {
    if (product.variants.length === 1) variant = product.variants[0];
    else {
      throw new InvalidBody(
        `Please choose the options of ${name}: variant_id or option_selections is required.`,
        {
          [`${path}.variant_id`]: 'variant_id is required for a product with options',
        },
      );
    }
  }
  if (!variant) throw new InvalidBody('Variant not found.');
  if (!product.base.is_visible || product.base.availability === 'disabled') {
    throw new InvalidBody(`${name} cannot be purchased.`, {
      [`${path}.product_id`]: 'product not purchasable',
    });
  }
  if (variant.purchasing_disabled) {
    const why = variant.purchasing_disabled_message
      ? `: ${variant.purchasing_disabled_message}`
      : '.';
    throw new InvalidBody(`${name} (${variant.sku}) cannot be purchased${why}`, {
      [`${path}.variant_id`]: 'purchasing disabled',
    });
  }
  return { product, variant, modifiers };
}

/**
 * The modifier values a line chooses (catalog.v3.yml modifiers, carts.v3.yml option_selections):
 * a value id, or for a checkbox its value's text ('Yes' / 'No', any case). A modifier named twice
 * or a value of another modifier is a 422, like upstream.
 */
function resolveModifiers(
  product: ProductFacts,
  line: LineInput,
  path: string,
): ModifierSelection[] {
  const chosen: ModifierSelection[] = [];
  for (const [i, selection] of (line.option_selections ?? []).entries()) {
    const modifier: ModifierRecord | undefined = product.modifiers.find(
      (m) => m.id === selection.option_id,
    );
    if (!modifier) continue;
    const wanted = selection.option_value;
    const value = modifier.option_values.find((v) =>
      typeof wanted === 'number'
        ? v.id === wanted
        : // Only checkboxes are seeded: a value's text is its 'Yes' / 'No' label.
          v.label.toLowerCase() === wanted.trim().toLowerCase(),
    );
    if (!value || chosen.some((c) => c.option_id === modifier.id)) {
      throw new InvalidBody(
        `Option value ${String(wanted)} is not a value of option ${modifier.display_name}.`,
        { [`${path}.option_selections.${i}.option_value`]: 'value not found on this option' },
      );
    }
    chosen.push({ option_id: modifier.id, value_id: value.id });
  }
  return chosen.sort(
    (a, b) =>
      (product.modifiers.find((m) => m.id === a.option_id)?.sort_order ?? 0) -
      (product.modifiers.find((m) => m.id === b.option_id)?.sort_order ?? 0),
  );
}

/** Stock and per-order quantity rules, on the cart as it would be after the write. */
export function checkQuantities(products: Products, items: CartItemRecord[]): void {
  const perProduct = new Map<number, number>();
  const perVariant = new Map<number, number>();
  for (const item of items) {
    perProduct.set(item.product_id, (perProduct.get(item.product_id) ?? 0) + item.quantity);
    perVariant.set(item.variant_id, (perVariant.get(item.variant_id) ?? 0) + item.quantity);
  }
  for (const [productId, quantity] of perProduct) {
    const product = products.get(productId);
    if (!product) continue;
    const { base } = product;
    if (base.order_quantity_maximum > 0 && quantity > base.order_quantity_maximum) {
      throw new InvalidBody(
        `You can only purchase a maximum of ${base.order_quantity_maximum} of the ${base.name} per order.`,
      );
    }
    if (base.order_quantity_minimum > 0 && quantity < base.order_quantity_minimum) {
      throw new InvalidBody(
        `You must purchase a minimum of ${base.order_quantity_minimum} of the ${base.name} per order.`,
      );
    }
    if (base.inventory_tracking === 'product' && quantity > base.inventory_level) {
      throw new InvalidBody(stockTitle(base.name, base.sku, base.inventory_level));
    }
    if (base.inventory_tracking === 'variant') {
      for (const variant of product.variants) {
        const wanted = perVariant.get(variant.id) ?? 0;
        if (wanted > variant.inventory_level) {
          throw new InvalidBody(stockTitle(base.name, variant.sku, variant.inventory_level));
        }
      }
    }
  }
}

export function stockTitle(name: string, sku: string, level: number): string {
  return level <= 0
    ? `Not enough stock: ${name} (${sku}) is out of stock and cannot be added to the cart.`
    : `Not enough stock: only ${level} of ${name} (${sku}) can be added to the cart.`;
}

/** Adds lines to the items, merging a repeated product + variant + options into one line. */
export function addLines(
  products: Products,
  items: CartItemRecord[],
  lines: LineInput[],
): CartItemRecord[] {
  const out = items.map((item) => ({ ...item }));
  lines.forEach((line, index) => {
    const resolved = resolveLine(products, line, `line_items.${index}`);
    const { product, variant } = resolved;
    const modifiers = resolved.modifiers ?? [];
    const missing = product.modifiers.find(
      (m) => m.required && !modifiers.some((c) => c.option_id === m.id),
    );
    if (missing) {
      throw new InvalidBody(`Please choose ${missing.display_name} for ${product.base.name}.`, {
        [`line_items.${index}.option_selections`]: `${missing.display_name} is required`,
      });
    }
    const selections = variant.option_values.map((v) => ({
      option_id: v.option_id,
      option_value: v.id,
    }));
    const existing = out.find(
      (item) =>
        item.product_id === product.base.id &&
        item.variant_id === variant.id &&
        sameModifiers(item.modifiers, modifiers) &&
        item.list_price === line.list_price,
    );
    if (existing) existing.quantity += line.quantity;
    else {
      out.push({
        id: randomUUID(),
        product_id: product.base.id,
        variant_id: variant.id,
        quantity: line.quantity,
        option_selections: selections,
        ...(modifiers.length > 0 ? { modifiers } : {}),
        ...(line.list_price !== undefined ? { list_price: line.list_price } : {}),
      });
    }
  });
  checkQuantities(products, out);
  return out;
}
