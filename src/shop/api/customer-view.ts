/**
 * The customer as the browser sees it (spec §3 "the current customer"): the customer and
 * what the shop derives from its form fields (reseller flag, shop name, saved cart id).
 */
import type { CurrentCustomer, Customer } from '../../lib/commerce/types.ts';
import { CartIdSchema } from '../connectors/bigcommerce/queries.ts';

/** spec §3 customer form fields. */
export const FORM_FIELDS = {
  cartId: 'Cart ID',
  reseller: 'Revendeur',
  shopName: 'Nom de la boutique',
  sellers: ['Vendeur 1', 'Vendeur 2', 'Vendeur 3', 'Vendeur 4', 'Vendeur 5'],
  accountingCode: 'Code tiers comptable',
} as const;

/**
 * Form fields a shopper may set. Never the reseller flag, the shop name or the accounting
 * code (the shop sets those); 'Cart ID' only to a cart they own or a guest cart.
 */
export const SHOPPER_FORM_FIELDS: ReadonlySet<string> = new Set([
  FORM_FIELDS.cartId,
  ...FORM_FIELDS.sellers,
]);

const fieldValue = (customer: Customer, name: string): string => {
  const value = customer.formFields.find((f) => f.name === name)?.value;
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
};

/** spec §3 current customer: the customer and what the shop derives from its form fields. */
export function currentCustomer(customer: Customer): CurrentCustomer {
  const savedCartId = fieldValue(customer, FORM_FIELDS.cartId);
  return {
    ...customer,
    isReseller: fieldValue(customer, FORM_FIELDS.reseller).toLowerCase() === 'oui',
    shopName: fieldValue(customer, FORM_FIELDS.shopName),
    sellers: FORM_FIELDS.sellers.map((name) => fieldValue(customer, name)).filter((v) => v !== ''),
    accountingCode: fieldValue(customer, FORM_FIELDS.accountingCode),
    savedCartId: CartIdSchema.safeParse(savedCartId).success ? savedCartId : null,
  };
}
