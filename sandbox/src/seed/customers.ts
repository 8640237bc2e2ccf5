/**
 * Customers of the seed (spec §3, §6): Marie Martin, a shopper with two addresses and four
 * orders in different statuses (one shipped with a tracked shipment), two resellers whose form
 * fields say so (one seller, three sellers) and a former reseller (Revendeur 'non'). Passwords are hashed when the database is seeded.
 */
import type { OrderAddressInput } from '../model.ts';

export interface SeedAddress {
  id: number;
  first_name: string;
  last_name: string;
  company: string;
  address1: string;
  address2: string;
  city: string;
  state_or_province: string;
  postal_code: string;
  country_code: string;
  phone: string;
  address_type: 'residential' | 'commercial';
}

export interface SeedOrder {
  status_id: number;
  date: string;
  lines: { product_id: number; variant_id: number; quantity: number }[];
  shipment?: { date: string; tracking_number: string };
}

export interface SeedCustomer {
  id: number;
  email: string;
  password: string;
  first_name: string;
  last_name: string;
  company: string;
  phone: string;
  date_created: string;
  accepts_product_review_abandoned_cart_emails: boolean;
  form_fields: { name: string; value: string }[];
  addresses: SeedAddress[];
  orders: SeedOrder[];
}

/** Customer form fields configured on the store (spec §3). */
export const CUSTOMER_FORM_FIELDS = [
  'Cart ID',
  'Revendeur',
  'Nom de la boutique',
  'Vendeur 1',
  'Vendeur 2',
  'Vendeur 3',
  'Vendeur 4',
  'Vendeur 5',
  'Code tiers comptable',
] as const;

/**
 * The store's address form fields (text): the house or apartment number the shop keeps beside
 * the street (src/lib/commerce/address.ts `HOUSE_NUMBER_FIELD`, spec §3 address labels).
 */
export const ADDRESS_FORM_FIELDS = ['Numéro de rue / appartement'] as const;

export const SEED_CUSTOMERS: SeedCustomer[] = [
  {
    id: 1,
    email: 'marie.martin@example.fr',
    password: 'Sommeil2024',
    first_name: 'Marie',
    last_name: 'Martin',
    company: '',
    phone: '0612345678',
    date_created: '2024-11-04T09:12:00Z',
    accepts_product_review_abandoned_cart_emails: true,
    form_fields: [],
    addresses: [
      {
        id: 1,
        first_name: 'Marie',
        last_name: 'Martin',
        company: '',
        address1: '12 rue des Lilas',
        address2: '',
        city: 'Lyon',
        state_or_province: '',
        postal_code: '69003',
        country_code: 'FR',
        phone: '0612345678',
        address_type: 'residential',
      },
      {
        id: 2,
        first_name: 'Marie',
        last_name: 'Martin',
        company: 'Atelier Martin',
        address1: '5 place Bellecour',
        address2: '2e étage',
        city: 'Lyon',
        state_or_province: '',
        postal_code: '69002',
        country_code: 'FR',
        phone: '0478123456',
        address_type: 'commercial',
      },
    ],
    orders: [
      {
        status_id: 10,
        date: '2025-01-15T10:30:00Z',
        lines: [{ product_id: 101, variant_id: 1002, quantity: 1 }],
        shipment: { date: '2025-01-17T08:00:00Z', tracking_number: '6A10000000001' },
      },
      {
        status_id: 2,
        date: '2025-03-02T14:05:00Z',
        lines: [
          { product_id: 179, variant_id: 1292, quantity: 2 },
          { product_id: 151, variant_id: 1218, quantity: 1 },
        ],
        shipment: { date: '2025-03-04T09:30:00Z', tracking_number: '6A12345678901' },
      },
      {
        status_id: 5,
        date: '2025-04-10T18:45:00Z',
        lines: [{ product_id: 101, variant_id: 1001, quantity: 1 }],
      },
      {
        status_id: 11,
        date: '2025-06-20T07:55:00Z',
        lines: [{ product_id: 179, variant_id: 1293, quantity: 1 }],
      },
    ],
  },
  {
    id: 2,
    email: 'revendeur@example.fr',
    password: 'Revendeur2024',
    first_name: 'Paul',
    last_name: 'Durand',
    company: 'Literie du Centre',
    phone: '0473000000',
    date_created: '2024-09-20T15:00:00Z',
    accepts_product_review_abandoned_cart_emails: false,
    form_fields: [
      { name: 'Revendeur', value: 'oui' },
      { name: 'Nom de la boutique', value: 'Literie du Centre' },
      { name: 'Vendeur 1', value: 'Sophie Bernard' },
      { name: 'Code tiers comptable', value: 'C0042' },
    ],
    addresses: [
      {
        id: 3,
        first_name: 'Paul',
        last_name: 'Durand',
        company: 'Literie du Centre',
        address1: '8 avenue de la République',
        address2: '',
        city: 'Clermont-Ferrand',
        state_or_province: '',
        postal_code: '63000',
        country_code: 'FR',
        phone: '0473000000',
        address_type: 'commercial',
      },
    ],
    orders: [],
  },
  {
    id: 3,
    email: 'boutique@literie-atlantique.fr',
    password: 'Atlantique2024',
    first_name: 'Claire',
    last_name: 'Moreau',
    company: 'Literie Atlantique',
    phone: '0240000000',
    date_created: '2025-02-11T10:00:00Z',
    accepts_product_review_abandoned_cart_emails: false,
    form_fields: [
      { name: 'Revendeur', value: 'oui' },
      { name: 'Nom de la boutique', value: 'Literie Atlantique' },
      { name: 'Vendeur 1', value: 'Julien Petit' },
      { name: 'Vendeur 2', value: 'Emma Garnier' },
      { name: 'Vendeur 3', value: 'Lucas Roux' },
      { name: 'Code tiers comptable', value: 'C0107' },
    ],
    addresses: [],
    orders: [],
  },
  {
    id: 4,
    email: 'ancien.revendeur@example.fr',
    password: 'Ancien2024',
    first_name: 'Hugo',
    last_name: 'Lefebvre',
    company: 'Maison du Sommeil',
    phone: '0320000000',
    date_created: '2024-05-02T08:30:00Z',
    accepts_product_review_abandoned_cart_emails: false,
    form_fields: [
      { name: 'Revendeur', value: 'non' },
      { name: 'Nom de la boutique', value: 'Maison du Sommeil' },
    ],
    addresses: [],
    orders: [],
  },
];

/** The order address of a seed address. */
export function orderAddress(customer: SeedCustomer, address: SeedAddress): OrderAddressInput {
  return {
    first_name: address.first_name,
    last_name: address.last_name,
    company: address.company,
    street_1: address.address1,
    street_2: address.address2,
    city: address.city,
    zip: address.postal_code,
    country_iso2: address.country_code,
    phone: address.phone,
    email: customer.email,
  };
}
