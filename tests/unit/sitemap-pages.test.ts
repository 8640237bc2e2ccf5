import { describe, expect, test } from 'vitest';
import { isSitemapPage } from '../../src/lib/commerce/routes.ts';

const url = (path: string) => `https://www.example.fr${path}`;

describe('isSitemapPage: what the sitemap lists', () => {
  test.each([
    '/',
    '/c/matelas',
    '/p/101/matelas-elysee',
    '/marque/dormelune',
    '/les-yeux-fermes',
    '/les-yeux-fermes/page/2',
    '/cgv',
    '/panier-bio', // a page whose path only starts like the cart's
  ])('lists %s', (path) => {
    expect(isSitemapPage(url(path))).toBe(true);
  });

  test.each([
    '/connexion',
    '/inscription',
    '/deconnexion',
    '/mot-de-passe',
    '/panier',
    '/paiement',
    '/mon-compte',
    '/mon-compte/mes-commandes',
    '/espace-revendeur',
    '/espace-revendeur/panier',
    '/vue/les-yeux-fermes',
    '/vue/c/matelas',
    '/Design',
    '/Tailwind',
    '/hors-ligne',
    '/sitemap-listings.xml',
  ])('leaves out %s', (path) => {
    expect(isSitemapPage(url(path))).toBe(false);
  });
});
