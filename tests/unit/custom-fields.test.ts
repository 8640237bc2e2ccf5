import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { discountBadge } from '../../src/lib/commerce/price.ts';
import {
  CUSTOM_FIELD_NAMES,
  customField,
  ecoParticipation,
  guaranteedReviews,
  productBadges,
  productTypes,
  shippingDelay,
  technologies,
} from '../../src/lib/commerce/custom-fields.ts';
import { fields, product } from './fixtures.ts';

describe('CUSTOM_FIELD_NAMES (spec §3 custom fields by name)', () => {
  test('lists every field name the shop reads', () => {
    expect(Object.values(CUSTOM_FIELD_NAMES).sort()).toEqual(
      [
        'labels',
        'technology',
        'corner_flag',
        'guaranteed_reviews',
        'standard_certification',
        'product_video',
        'shipping_delay',
        'shipping_delay_out_of_stock',
        'made_in_france',
        'Type_1',
        'Type_2',
        'Type_3',
        'eco_participation',
        'collection',
      ].sort(),
    );
  });
});

describe('customField', () => {
  test.each([
    ['present, trimmed', fields({ collection: '  Nuit étoilée ' }), 'Nuit étoilée'],
    ['absent', fields({ labels: 'x' }), undefined],
    ['blank counts as absent', fields({ collection: '  ' }), undefined],
    ['name is case sensitive', fields({ Collection: 'X' }), undefined],
  ])('%s', (_case, customFields, expected) => {
    expect(customField(product({ customFields }), 'collection')).toBe(expected);
  });
});

describe('productBadges', () => {
  test.each([
    ['no badge', product(), []],
    [
      'sale discount first',
      product({ price: 10000, salePrice: 8000 }),
      [{ kind: 'discount', label: '-20%' }],
    ],
    [
      'corner flag, made in France, labels comma list',
      product({
        customFields: fields({
          corner_flag: 'Exclusivité',
          made_in_france: 'Yes',
          labels: 'Nouveau, Éco-conçu,, Nouveau',
        }),
      }),
      [
        { kind: 'corner', label: 'Exclusivité' },
        { kind: 'made-in-france', label: 'Fabriqué en France' },
        { kind: 'label', label: 'Nouveau' },
        { kind: 'label', label: 'Éco-conçu' },
      ],
    ],
    ['made in France "No"', product({ customFields: fields({ made_in_france: 'No' }) }), []],
    [
      'a label equal to an earlier badge is shown once',
      product({
        customFields: fields({ corner_flag: 'Fabriqué en France', made_in_france: 'Oui' }),
      }),
      [{ kind: 'corner', label: 'Fabriqué en France' }],
    ],
    [
      'hidden price: no discount badge',
      product({ isPriceHidden: true, price: 10000, salePrice: 5000 }),
      [],
    ],
    [
      'one discount: a corner flag "-21 %" beside the computed -20% is not shown',
      product({ price: 10000, salePrice: 7950, customFields: fields({ corner_flag: '-21 %' }) }),
      [{ kind: 'discount', label: '-20%' }],
    ],
    [
      'one discount: a discount corner flag without a sale price is not shown either',
      product({ customFields: fields({ corner_flag: 'Promo −30%', labels: '-10 %, Nouveau' }) }),
      [{ kind: 'label', label: 'Nouveau' }],
    ],
  ])('%s', (_case, p, badges) => {
    expect(productBadges(p)).toEqual(badges);
  });

  test('whatever the flags say, at most one discount badge, and it is the computed one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: undefined }),
        fc.option(fc.constantFrom('-20 %', '- 5%', '−30%', 'Promo -15 %', 'Soldes', '-7,5 %')),
        fc.array(fc.constantFrom('-10 %', 'Nouveau', '- 40%', 'Éco'), { maxLength: 3 }),
        (price, sale, corner, labels) => {
          const extra: Record<string, string> = {};
          if (corner !== null) extra.corner_flag = corner;
          if (labels.length > 0) extra.labels = labels.join(',');
          const badges = productBadges(
            product({ price, salePrice: sale, customFields: fields(extra) }),
          );
          const discounts = badges.filter((b) => b.label.includes('%'));
          expect(discounts.length).toBeLessThanOrEqual(1);
          for (const badge of discounts) expect(badge.kind).toBe('discount');
          const computed = discountBadge(price, sale ?? null);
          expect(discounts.map((b) => b.label)).toEqual(computed === null ? [] : [computed]);
        },
      ),
    );
  });
});

describe('guaranteedReviews (JSON {average,total}, parsed safely)', () => {
  test.each([
    ['numbers', '{"average":4.6,"total":128}', { average: 4.6, total: 128 }],
    ['numeric strings', '{"average":"4,6","total":"12"}', { average: 4.6, total: 12 }],
    ['no review', '{"average":0,"total":0}', null],
    ['malformed JSON', '{average:4.6', null],
    ['average out of range', '{"average":7,"total":3}', null],
    ['wrong shape', '[4.6,128]', null],
    ['missing field', '{"average":4.6}', null],
  ])('%s', (_case, raw, expected) => {
    expect(
      guaranteedReviews(product({ customFields: fields({ guaranteed_reviews: raw }) })),
    ).toEqual(expected);
  });

  test('absent field', () => {
    expect(guaranteedReviews(product())).toBeNull();
  });
});

describe('ecoParticipation (euros in the field, cents out)', () => {
  test.each([
    ['whole euros', '5', 500],
    ['dot decimals', '4.50', 450],
    ['French decimals and symbol', '4,50 €', 450],
    ['zero', '0', null],
    ['text', 'offerte', null],
  ])('%s', (_case, raw, cents) => {
    expect(ecoParticipation(product({ customFields: fields({ eco_participation: raw }) }))).toBe(
      cents,
    );
  });
});

describe('shippingDelay', () => {
  const both = fields({ shipping_delay: '48 h', shipping_delay_out_of_stock: '3 semaines' });
  test.each([
    ['in stock', product({ customFields: both }), '48 h'],
    [
      'out of stock',
      product({ inventoryTracking: 'product', inventoryLevel: 0, customFields: both }),
      '3 semaines',
    ],
    [
      'out of stock without its own field',
      product({ inventoryTracking: 'product', customFields: fields({ shipping_delay: '48 h' }) }),
      '48 h',
    ],
    ['no field', product(), undefined],
  ])('%s', (_case, p, expected) => {
    expect(shippingDelay(p)).toBe(expected);
  });
});

describe('productTypes and technologies', () => {
  test.each([
    [
      'Type_1..3 in order, blanks dropped',
      productTypes(
        product({ customFields: fields({ Type_3: 'Ressorts', Type_1: 'Matelas', Type_2: ' ' }) }),
      ),
      ['Matelas', 'Ressorts'],
    ],
    [
      'technology comma list',
      technologies(product({ customFields: fields({ technology: 'Latex, Mémoire de forme' }) })),
      ['Latex', 'Mémoire de forme'],
    ],
  ])('%s', (_case, actual, expected) => {
    expect(actual).toEqual(expected);
  });
});
