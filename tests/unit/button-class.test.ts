import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { buttonClass } from '../../src/lib/ui/classes.ts';

const classes = (value: string) => value.split(' ');

/** The utilities a named class of components.css applies (`.name { @apply ...; }`). */
const css = readFileSync(
  path.resolve(import.meta.dirname, '../../src/styles/components.css'),
  'utf8',
);
function applied(selector: string): string[] {
  const escaped = selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const rule = new RegExp(`^\\s*${escaped}\\s*\\{\\s*@apply ([^;]+);`, 'm').exec(css);
  if (!rule?.[1]) throw new Error(`no rule ${selector} in components.css`);
  return rule[1].split(/\s+/);
}

describe('buttonClass', () => {
  test.each([
    [
      'a default button keeps its label on one line, padded by size',
      {},
      ['btn', 'btn-primary', 'btn-md'],
      ['btn-wrap'],
    ],
    // A product card's 147 px button on a 390 px phone cut "Ajouter au panier".
    [
      'a wrapping button lets the label take two lines, with less padding',
      { wrap: true },
      ['btn-md', 'btn-wrap'],
      [],
    ],
    ['a full-width wrapping button', { wrap: true, fullWidth: true }, ['w-full', 'btn-wrap'], []],
  ])('%s', (_, extra, present, absent) => {
    const list = classes(buttonClass('primary', 'md', extra));
    for (const name of present) expect(list).toContain(name);
    for (const name of absent) expect(list).not.toContain(name);
  });

  test('the named classes: one line unless wrapping, padding by size, less when wrapping', () => {
    expect(applied('.btn:not(.btn-wrap)')).toContain('whitespace-nowrap');
    expect(applied('.btn-md')).toContain('px-5');
    expect(applied('.btn-wrap')).toEqual(expect.arrayContaining(['px-2', 'text-center']));
    // The wrapping padding comes after the sizes' (same layer, the later rule wins).
    expect(css.indexOf('.btn-wrap {')).toBeGreaterThan(css.indexOf('.btn-lg {'));
  });

  test('a link-styled button has no padding and one line', () => {
    const list = classes(buttonClass('link', 'md'));
    expect(list).toEqual(['btn', 'btn-link']);
    expect(applied('.btn-link')).toEqual(expect.arrayContaining(['px-0', 'min-h-0']));
  });
});
