import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { currentBanner } from '../../src/lib/commerce/banner.ts';
import {
  defaultReassurance,
  parseReassurance,
} from '../../src/shop/view-models/layout/reassurance.ts';
import { colourFamilies, themeTokens } from '../../src/lib/ui/theme.ts';
import { SCREENS } from '../../src/lib/ui/tokens.ts';
import type { Banner } from '../../src/lib/commerce/types.ts';
import {
  $detailsMenuOpen,
  $searchOpen,
  closeMenus,
  closeDetailsMenu,
  openDetailsMenu,
  openSearch,
} from '../../src/lib/stores/ui.ts';

// Read from disk: vitest does not process CSS, even as `?raw`.
const css = readFileSync(new URL('../../src/styles/global.css', import.meta.url), 'utf8');

const banner = (id: number, visible: boolean, content = `<p>Bannière ${id}</p>`): Banner => ({
  id,
  name: `b${id}`,
  content,
  page: 'home_page',
  location: 'top',
  visible,
});

describe('currentBanner (spec §3: visible, highest id)', () => {
  test.each([
    ['no banner', [], null],
    ['only hidden banners', [banner(1, false), banner(2, false)], null],
    ['highest visible id', [banner(3, true), banner(9, true), banner(5, true)], 9],
    ['a hidden banner with a higher id is skipped', [banner(4, true), banner(8, false)], 4],
    ['a blank visible banner is skipped', [banner(2, true), banner(7, true, '  ')], 2],
  ])('%s', (_case, banners, expectedId) => {
    expect(currentBanner(banners)?.id ?? null).toBe(expectedId);
  });
});

describe('parseReassurance (spec §2 reassurance banner)', () => {
  const valid = JSON.stringify([
    { title: 'Retour gratuit', text: 'Sous 100 nuits', icon: 'truck' },
    { title: 'Paiement en 3 fois', icon: 'shield' },
    { title: 'Conseil', text: 'Par téléphone', icon: 'phone' },
  ]);

  test('defaults are the spec texts', () => {
    expect(defaultReassurance().map((item) => item.title)).toEqual([
      'Livraison rapide',
      '4 magasins',
      'Circuit court',
    ]);
  });

  test.each([
    ['unset', undefined],
    ['blank', '  '],
    ['not JSON', '{'],
    ['two columns', JSON.stringify([{ title: 'a' }, { title: 'b' }])],
    [
      'unknown icon',
      JSON.stringify([{ title: 'a', icon: 'rocket' }, { title: 'b' }, { title: 'c' }]),
    ],
  ])('%s falls back to the defaults', (_case, json) => {
    expect(parseReassurance(json)).toEqual(defaultReassurance());
  });

  test('three valid columns are used, with defaults for text and icon', () => {
    expect(parseReassurance(valid)).toEqual([
      { title: 'Retour gratuit', text: 'Sous 100 nuits', icon: 'truck' },
      { title: 'Paiement en 3 fois', text: '', icon: 'shield' },
      { title: 'Conseil', text: 'Par téléphone', icon: 'phone' },
    ]);
  });
});

describe('theme tokens of global.css', () => {
  test('screens are exactly spec §9', () => {
    const screens = themeTokens(css, 'breakpoint').map(({ name, value }) => [
      name.slice('breakpoint-'.length),
      Number.parseFloat(value) * 16,
    ]);
    expect(Object.fromEntries(screens)).toEqual(SCREENS);
  });

  test('the star colour is #CD9C4B (spec §9)', () => {
    const other = colourFamilies(css).get('other') ?? [];
    expect(other.find((token) => token.name === 'color-star')?.value.toUpperCase()).toBe('#CD9C4B');
  });

  test('order-status colours exist (spec §4)', () => {
    const names = themeTokens(css, 'color').map((token) => token.name);
    expect(names).toEqual(
      expect.arrayContaining(['color-success', 'color-danger', 'color-highlight']),
    );
  });
});

describe('ui store (spec §4 UI state)', () => {
  afterEach(() => {
    closeMenus();
  });

  test('opening the details menu closes the search', () => {
    const seen: [boolean, boolean][] = [];
    const stop = $detailsMenuOpen.listen((open) => seen.push([open, $searchOpen.get()]));
    openSearch();
    openDetailsMenu();
    stop();
    expect(seen).toEqual([[true, false]]);
  });

  test('the details (and mobile) menu opens and closes, and closeMenus closes everything', () => {
    const seen: boolean[] = [];
    const stop = $detailsMenuOpen.listen((open) => seen.push(open));
    openDetailsMenu();
    closeDetailsMenu();
    openDetailsMenu();
    openSearch();
    closeMenus();
    stop();
    expect(seen).toEqual([true, false, true, false]);
    expect([$detailsMenuOpen.get(), $searchOpen.get()]).toEqual([false, false]);
  });
});
