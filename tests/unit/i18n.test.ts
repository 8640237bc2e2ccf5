import { describe, expect, test } from 'vitest';
import fr from '../../src/lib/i18n/fr.json' with { type: 'json' };
import { i18n, pickMessages, t, type MessageKey } from '../../src/lib/i18n/index.ts';
import { resolveI18nConfig } from '../../src/lib/i18n/config.ts';
import { createTranslator, islandMessages, pageMessages } from '../../src/lib/i18n/translate.ts';
import { scriptJson } from '../../src/lib/script-json.ts';
import { VARIANT_PICKER_MESSAGES } from '../../src/islands/VariantPicker.tsx';
import { SHOP_SHELL_MESSAGES } from '../../src/islands/shell-messages.ts';

describe('message file', () => {
  test.each(Object.entries(fr))('key %j has a non-empty French value', (key, value) => {
    expect(typeof value).toBe('string');
    expect(value.trim()).not.toBe('');
    expect(i18n.exists(key)).toBe(true);
  });
});

describe('spec texts (English key → French wording, French texts verbatim)', () => {
  test.each([
    ['§2 error page 404 title', 'Page not found', 'Page introuvable'],
    [
      '§8 unknown page text',
      "We are sorry that we can't find the page, please go back or try again",
      'Nous sommes désolés, nous ne trouvons pas cette page. Veuillez revenir en arrière ou réessayer.',
    ],
    ['§2 other error title', 'An error occured', 'Une erreur est survenue'],
    [
      '§2 other error text',
      'Please go back or try again',
      'Veuillez revenir en arrière ou réessayer',
    ],
    ['§2 error button home', 'Return home', "Retour à l'accueil"],
    ['§2 error button back', 'Back', 'Retour'],
    [
      '§2 search empty result',
      'No products found matching your search criteria.',
      'Aucun produit ne correspond à vos critères de recherche.',
    ],
    [
      '§2 search before input',
      "You haven't searched for items yet",
      "Vous n'avez encore rien recherché",
    ],
    ['§2 search placeholder', 'search.placeholder', 'Rechercher un matelas, un produit...'],
    ['§2 account button connected', 'header.connected', 'Connecté'],
    ['§2 account button guest', 'header.login', 'Me connecter'],
    ['§2 bottom bar home', 'nav.home', 'Accueil'],
    ['§2 bottom bar menu', 'nav.menu', 'Menu'],
    ['§2 bottom bar sleep content', 'nav.sleepContent', 'Les yeux fermés'],
    ['§2 bottom bar cart', 'nav.cart', 'Panier'],
    ['§2 reassurance 1', 'reassurance.fastDelivery', 'Livraison rapide'],
    ['§2 reassurance 2', 'reassurance.stores', '4 magasins'],
    ['§2 reassurance 3', 'reassurance.shortCircuit', 'Circuit court'],
    ['§4 wishlist to cart notification', 'Added to cart', 'Ajouté au panier'],
    ['§4 newsletter success', 'newsletter.success', 'Adresse enregistrée avec succès'],
    ['§5 email rule', 'Invalid email', 'Adresse e-mail invalide'],
    ['§5 required rule', 'validation.required', 'Ce champ est requis'],
    ['§5 login invalid', 'Invalid credentials', 'Identifiants invalides'],
    ['§5 user data missing', 'Get user data failed', 'Impossible de récupérer vos informations'],
    [
      '§5 password rule',
      'Password must have at least 7 characters including one letter and a number',
      'Le mot de passe doit contenir au moins 7 caractères dont une lettre et un chiffre',
    ],
    ['§5 create account checkbox', 'I want to create an account', 'Je souhaite créer un compte'],
    [
      '§5 customer update empty',
      'Update client failed',
      'La mise à jour de vos informations a échoué',
    ],
    ['§5 form update empty', 'Update form failed', 'La mise à jour du formulaire a échoué'],
    [
      '§5 reseller seller',
      'You need to select a seller too',
      'Vous devez aussi sélectionner un vendeur',
    ],
    [
      '§5 address hint',
      'validation.addressHint',
      'Veuillez entrer votre adresse valide (maximum 40 caractères)',
    ],
    ['§8 newsletter 400', 'newsletter.error.exists', 'Le contact existe déjà dans la liste.'],
    [
      '§8 addContactToList 400',
      'newsletter.error.existsOrMissing',
      "Le contact existe déjà dans la liste et/ou n'existe pas.",
    ],
    ['§8 router 404 text', 'This page could not be found', 'Cette page est introuvable'],
    ['§8 stock out', 'Out of stock', 'Rupture de stock'],
    [
      '§8 stock exceeded',
      'The selected quantity exceeds available stock.',
      'La quantité sélectionnée dépasse le stock disponible.',
    ],
    ['§8 stock unavailable', 'Currently unavailable', 'Actuellement indisponible'],
    ['§9 hidden price label', 'price.hidden', 'Prix masqué'],
  ] as const)('%s', (_case, key, french) => {
    expect(t(key)).toBe(french);
  });
});

describe('interpolation and plurals', () => {
  test.each([
    ['§2 (n avis) with 0', 'rating.reviewsCount', { count: 0 }, '(0 avis)'],
    ['§2 (n avis) with 12', 'rating.reviewsCount', { count: 12 }, '(12 avis)'],
    ['plural one', 'listing.results', { count: 1 }, '1 produit'],
    ['plural other', 'listing.results', { count: 3 }, '3 produits'],
    [
      'value not HTML-escaped (Astro and React escape)',
      'search.resultsTitle',
      { term: 'a&b' },
      'Résultats pour « a&b »',
    ],
  ] as const)('%s', (_case, key, options, expected) => {
    expect(t(key, options)).toBe(expected);
  });
});

describe('resolveI18nConfig (spec §5 startup check)', () => {
  test.each([
    ['all present', { locale: 'fr', currency: 'EUR', country: 'FR' }, null],
    [
      'locale missing',
      { currency: 'EUR', country: 'FR' },
      'Following fields are missing in the i18n configuration: locale',
    ],
    [
      'currency and country empty',
      { locale: 'fr', currency: '', country: '  ' },
      'Following fields are missing in the i18n configuration: currency, country',
    ],
    [
      'everything missing',
      {},
      'Following fields are missing in the i18n configuration: locale, currency, country',
    ],
  ] as const)('%s', (_case, input, error) => {
    if (error === null) {
      expect(resolveI18nConfig(input)).toEqual({ locale: 'fr', currency: 'EUR', country: 'FR' });
    } else {
      expect(() => resolveI18nConfig(input)).toThrow(new Error(error));
    }
  });
});

describe("t() with options says what i18next says (its own interpolation, i18next's fallback)", () => {
  const bases = [...new Set(Object.keys(fr).map((key) => key.replace(/_(one|other)$/, '')))];
  const names = (key: string) =>
    Object.entries(fr)
      .filter(([name]) => name === key || name.startsWith(`${key}_`))
      .flatMap(([, text]) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? ''));
  test.each(bases)('%j', (key) => {
    const values = Object.fromEntries(names(key).map((name, i) => [name, `v${String(i)} {{x}}`]));
    for (const count of [0, 1, 2, 1.5, 1000]) {
      const options = { ...values, count, page: 3 };
      expect(t(key as MessageKey, options)).toBe(i18n.t(key, options));
    }
    // A value missing, or not a string or number: what i18next does with it.
    const missing = { count: 2 };
    expect(t(key as MessageKey, missing)).toBe(i18n.t(key, missing));
    const objects = Object.fromEntries(names(key).map((name) => [name, { a: 1 }]));
    expect(t(key as MessageKey, objects)).toBe(i18n.t(key, objects));
  });

  test('an unknown key is the key, as i18next answers', () => {
    expect(t('no.such.key' as MessageKey, { count: 2 })).toBe(i18n.t('no.such.key', { count: 2 }));
  });
});

describe("islands' translator (translate.ts) says what t() says", () => {
  const translate = createTranslator(fr);
  const bases = [...new Set(Object.keys(fr).map((key) => key.replace(/_(one|other)$/, '')))];
  test.each(bases)('%j', (key) => {
    const options = { count: 1, value: '4,5', label: 'Gris', term: 'latex', page: 2 };
    expect(translate(key, options)).toBe(t(key as MessageKey, options));
    expect(translate(key, { ...options, count: 3 })).toBe(
      t(key as MessageKey, { ...options, count: 3 }),
    );
  });

  test('pickMessages hands an island a key with its plural forms, and nothing else', () => {
    expect(Object.keys(pickMessages(['stock.lowStock', 'Out of stock'])).sort()).toEqual([
      'Out of stock',
      'stock.lowStock_one',
      'stock.lowStock_other',
    ]);
  });
});

describe('islandMessages: the same texts on the server and from the page', () => {
  const keys = VARIANT_PICKER_MESSAGES;
  const withDocument = <T>(scripts: Record<string, string>, run: () => T): T => {
    const global = globalThis as { document?: unknown };
    global.document = {
      getElementById: (id: string) => (id in scripts ? { textContent: scripts[id] } : null),
    };
    try {
      return run();
    } finally {
      delete global.document;
    }
  };

  test('on the server (no document): the messages of the keys, as pickMessages gives them', () => {
    expect(islandMessages('variant-picker-messages', keys)).toEqual(pickMessages(keys));
    expect(Object.keys(islandMessages('x', ['cart.add']))).toEqual(['cart.add']);
  });

  test('in the browser: what the page wrote (IslandMessages.astro: scriptJson of pickMessages)', () => {
    for (const list of [VARIANT_PICKER_MESSAGES, SHOP_SHELL_MESSAGES]) {
      const written = scriptJson(pickMessages(list));
      const read = withDocument({ texts: written }, () => islandMessages('texts', list));
      expect(read).toEqual(islandMessages('texts', list));
    }
  });

  test('in the browser, a missing or broken script gives no texts rather than an error', () => {
    expect(withDocument({}, () => islandMessages('texts', keys))).toEqual({});
    expect(withDocument({ texts: '{"a":' }, () => pageMessages('texts'))).toEqual({});
    expect(pageMessages('texts')).toEqual({});
  });

  test('every key an island asks for is in the message file', () => {
    for (const key of [...VARIANT_PICKER_MESSAGES, ...SHOP_SHELL_MESSAGES]) {
      expect(Object.keys(pickMessages([key])).length, key).toBeGreaterThan(0);
    }
  });
});
