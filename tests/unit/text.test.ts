import { describe, expect, test } from 'vitest';
import { stripHtml, truncateText } from '../../src/lib/commerce/text.ts';
import { htmlToText } from '../../src/shop/html/sanitize-html.ts';

describe('stripHtml', () => {
  test.each([
    ['tags removed', '<p>Un <strong>matelas</strong> ferme</p>', 'Un matelas ferme'],
    ['block tags separate words', '<p>Ferme</p><p>Doux</p>', 'Ferme Doux'],
    ['line breaks separate words', 'Ferme<br/>Doux', 'Ferme Doux'],
    [
      'named entities decoded',
      'Qualit&eacute; &amp; confort&nbsp;: &laquo;top&raquo;',
      'Qualité & confort : «top»',
    ],
    ['numeric entities decoded', 'l&#39;oreiller &#x2013; 5&#8364;', "l'oreiller – 5€"],
    ['escaped markup stays text', '&lt;b&gt;gras&lt;/b&gt;', '<b>gras</b>'],
    [
      'scripts, styles and comments dropped',
      '<style>p{}</style><script>x()</script><!-- c -->Texte',
      'Texte',
    ],
    ['unknown entity kept', 'a &foo; b', 'a &foo; b'],
    [
      'white space collapsed and trimmed',
      '  <div>\n  Matelas\t\tconfort </div> ',
      'Matelas confort',
    ],
  ])('%s', (_case, html, text) => {
    expect(stripHtml(html)).toBe(text);
  });
});

// What the pages do with a description: its text (htmlToText), truncated.
describe('truncateText of a description (spec §2, §9: HTML stripped, 50 characters)', () => {
  test.each([
    ['short text unchanged', '<p>Matelas ferme.</p>', 50, 'Matelas ferme.'],
    ['exactly 50 characters unchanged', 'x'.repeat(50), 50, 'x'.repeat(50)],
    [
      'cut on a word boundary with an ellipsis counted in the 50',
      '<p>Un matelas à ressorts ensachés pour un soutien ferme et un accueil moelleux.</p>',
      50,
      'Un matelas à ressorts ensachés pour un soutien…',
    ],
    [
      'word never cut in the middle',
      'Matelas mousse haute résilience extraordinairement confortable',
      50,
      'Matelas mousse haute résilience…',
    ],
    [
      'trailing punctuation before the cut removed',
      'Doux, ferme, aéré, léger',
      19,
      'Doux, ferme, aéré…',
    ],
    ['one long word is cut inside', 'a'.repeat(60), 50, `${'a'.repeat(49)}…`],
    ['cut just before a space keeps the whole word', 'abcd efgh', 5, 'abcd…'],
    ['accents count as one character', 'é'.repeat(51), 50, `${'é'.repeat(49)}…`],
  ])('%s', (_case, html, max, expected) => {
    const result = truncateText(htmlToText(html), max);
    expect(result).toBe(expected);
    expect(Array.from(result).length).toBeLessThanOrEqual(max);
  });

  test('default length is 50', () => {
    expect(Array.from(truncateText('mot '.repeat(40))).length).toBeLessThanOrEqual(50);
  });
});
