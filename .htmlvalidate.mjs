/**
 * html-validate's configuration (a module, for the reasons below: JSON holds no comment): the
 * built pages `npm test`'s html step checks (`scripts/check-html.ts`); the CLI and editors read
 * it too. Every rule of the recommended preset applies, but these, each for its reason. Besides,
 * the check removes Astro's island prelude before validating (see `ASTRO_ISLAND_STYLE` there).
 */
import { defineConfig } from 'html-validate';

export default defineConfig({
  root: true,
  extends: ['html-validate:recommended'],
  rules: {
    // The islands' server HTML is React's, which writes attribute names as React spells its
    // props (`autoComplete`, `noValidate`, `inputMode`): HTML attribute names are ASCII
    // case-insensitive (browsers read `autocomplete`), and the lowercase names are no props of
    // React's types. camelCase is allowed beside lowercase; UPPER and PascalCase still fail.
    'attr-case': ['error', { style: ['lowercase', 'camelcase'] }],
    // Two renderers, two spellings of one attribute: Astro writes `required`, React
    // `required=""`; HTML reads both as the boolean attribute present.
    'attribute-boolean-style': 'off',
    // Likewise for void elements: Astro writes `<input>`, React `<input/>`; HTML ignores the
    // slash.
    'void-style': 'off',
    // React's `useId` ids begin with `_` (`_r2R_2_`), which HTML allows (any id without
    // whitespace: what the relaxed mode still requires); the strict mode wants a letter first.
    'valid-id': ['error', { relaxed: true }],
    // A listing's filter checkboxes share their name (`?marque=40&marque=41`): the way a GET
    // form sends several values of one filter.
    'form-dup-name': ['error', { shared: ['radio', 'checkbox', 'button', 'reset', 'submit'] }],
    // The shop's style attributes carry data no class can hold: a rating's fill
    // (`--stars-fill: 72%`), a swatch's colours from the catalogue, the room kept for the
    // reviews, the heights of a rating chart's bars. The CSP allows them (`style-src-attr`).
    'no-inline-style': 'off',
  },
});
