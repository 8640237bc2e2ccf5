import { describe, expect, test } from 'vitest';
import { brandPath, categoryPath, productPath, slugify } from '../../src/lib/commerce/slug.ts';

describe('slugify (spec §2: lowercase, no accents, special characters and spaces → one hyphen)', () => {
  test.each([
    ['lowercased', 'Matelas Confort', 'matelas-confort'],
    ['accents removed', 'Oreiller Écologique à mémoire', 'oreiller-ecologique-a-memoire'],
    [
      'special characters collapsed',
      'Matelas 140×190 – ferme & doux!',
      'matelas-140-190-ferme-doux',
    ],
    ['runs of spaces collapsed', 'Couette   été', 'couette-ete'],
    ['no leading or trailing hyphen', '  (Nouveau) Sommier!  ', 'nouveau-sommier'],
    ['apostrophe', "L'oreiller du dormeur", 'l-oreiller-du-dormeur'],
    ['ligatures', 'Cœur Œuvre', 'coeur-oeuvre'],
    ['cedilla and diaeresis', 'Garçon Noël', 'garcon-noel'],
    ['digits kept', 'Matelas 7 zones', 'matelas-7-zones'],
    ['nothing left', '!!!', ''],
  ])('%s', (_case, name, slug) => {
    expect(slugify(name)).toBe(slug);
  });
});

describe('paths', () => {
  test.each([
    [
      'product /p/{id}/{slug}',
      productPath({ id: 42, name: 'Matelas Équilibre 160x200' }),
      '/p/42/matelas-equilibre-160x200',
    ],
    ['product with an empty slug', productPath({ id: 7, name: '***' }), '/p/7/produit'],
    [
      'category url with trailing slash',
      categoryPath('/matelas/matelas-ressorts/'),
      '/c/matelas/matelas-ressorts',
    ],
    ['category url without trailing slash', categoryPath('/matelas'), '/c/matelas'],
    ['category url without leading slash', categoryPath('linge-de-lit/'), '/c/linge-de-lit'],
    [
      'brand from upstream custom url',
      brandPath({ name: 'Dunlopillo', url: '/dunlopillo/' }),
      '/marque/dunlopillo',
    ],
    [
      'brand from shop url',
      brandPath({ name: 'Dunlopillo', url: '/marque/dunlopillo' }),
      '/marque/dunlopillo',
    ],
    ['brand without url uses name', brandPath({ name: 'Bultex Épeda' }), '/marque/bultex-epeda'],
  ])('%s', (_case, actual, expected) => {
    expect(actual).toBe(expected);
  });
});
