/**
 * Markup written as strings (src/lib/ui/markup.ts): whatever the value, text stays text
 * and an attribute value stays that attribute's value, read back by an HTML parser.
 */
import fc from 'fast-check';
import { parseDocument } from 'htmlparser2';
import { describe, expect, test } from 'vitest';
import { attr, classList, flag, text } from '../../src/lib/ui/markup.ts';

function parse(html: string) {
  return parseDocument(html, { decodeEntities: true });
}

describe('markup strings', () => {
  test('text: any string is one text node equal to it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const document = parse(`<p>${text(value)}</p>`);
        const paragraph = document.children[0] as unknown as { children: { data?: string }[] };
        expect(document.children).toHaveLength(1);
        expect(paragraph.children.map((node) => node.data ?? '<element>').join('')).toBe(value);
      }),
    );
  });

  test('attr: any value is that attribute, and no other attribute or element comes out', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const document = parse(`<a${attr('title', value)}${attr('href', '/x')}>lien</a>`);
        expect(document.children).toHaveLength(1);
        const link = document.children[0] as unknown as { attribs: Record<string, string> };
        expect(link.attribs).toEqual({ title: value, href: '/x' });
      }),
    );
  });

  test('null and undefined write nothing; booleans and class lists', () => {
    expect(attr('a', null) + attr('b', undefined)).toBe('');
    expect(attr('a', '')).toBe(' a');
    expect(attr('a', 0)).toBe(' a="0"');
    expect(flag('checked', true) + flag('selected', false)).toBe(' checked');
    expect(classList('icon', false, undefined, 'icon-18')).toBe(' class="icon icon-18"');
    expect(classList(false, null)).toBe('');
  });
});
