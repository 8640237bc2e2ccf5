import { describe, expect, test } from 'vitest';
import { buttonClass } from '../../src/components/ui/classes.ts';

const classes = (value: string) => value.split(' ');

describe('buttonClass', () => {
  test.each([
    [
      'a default button keeps its label on one line, padded by size',
      {},
      ['whitespace-nowrap', 'px-5'],
      ['px-2'],
    ],
    // Issue 19: a product card's 147 px button on a 390 px phone cut "Ajouter au panier".
    [
      'a wrapping button lets the label take two lines, with less padding',
      { wrap: true },
      ['px-2', 'text-center'],
      ['whitespace-nowrap', 'px-5'],
    ],
    ['a full-width wrapping button', { wrap: true, fullWidth: true }, ['w-full', 'px-2'], ['px-5']],
  ])('%s', (_, extra, present, absent) => {
    const list = classes(buttonClass('primary', 'md', extra));
    for (const name of present) expect(list).toContain(name);
    for (const name of absent) expect(list).not.toContain(name);
  });

  test('a link-styled button has no padding and one line', () => {
    const list = classes(buttonClass('link', 'md'));
    expect(list).toEqual(expect.arrayContaining(['px-0', 'min-h-0', 'whitespace-nowrap']));
    expect(list).not.toContain('px-5');
  });
});
