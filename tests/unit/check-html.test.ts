/**
 * The html step's configuration (`.htmlvalidate.mjs`, scripts/check-html.ts): React's server
 * spellings and Astro's island prelude pass, and what the shop's markup had wrong (a `<style>`
 * in the body, an `<img>` without `src`, a class twice, a phone number that may break, two
 * landmarks of one name, a button without type) still fails.
 */
import { HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import config from '../../.htmlvalidate.mjs';
import { ASTRO_ISLAND_STYLE, pagesToCheck } from '../../scripts/check-html.ts';

const validator = new HtmlValidate(config);
const page = (body: string) =>
  `<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><title>Literie</title></head><body>${body}</body></html>`;
async function rules(body: string): Promise<string[]> {
  const report = await validator.validateString(page(body).replaceAll(ASTRO_ISLAND_STYLE, ''));
  return report.results.flatMap((r) => r.messages.map((m) => m.ruleId));
}

describe('.htmlvalidate.mjs', () => {
  it("accepts React's server HTML and Astro's island prelude", async () => {
    expect(
      await rules(
        `<main><div>${ASTRO_ISLAND_STYLE}<astro-island>` +
          '<form noValidate=""><label for="_r2R_2_">E-mail</label>' +
          '<input type="email" id="_r2R_2_" name="email" autoComplete="email" inputMode="email" required=""/>' +
          '<button type="submit" disabled="">Envoyer</button></form></astro-island></div></main>',
      ),
    ).toEqual([]);
  });

  it('accepts filter checkboxes sharing a name and data-driven style attributes', async () => {
    expect(
      await rules(
        '<form><label><input type="checkbox" name="marque" value="40"> A</label>' +
          '<label><input type="checkbox" name="marque" value="41"> B</label>' +
          '<span style="--stars-fill:72%">4,5</span><button type="submit">Filtrer</button></form>',
      ),
    ).toEqual([]);
  });

  it('still fails what the shop had wrong', async () => {
    expect(await rules('<div><style>p{color:red}</style></div>')).toEqual([
      'element-permitted-content',
    ]);
    expect(await rules('<dialog aria-label="Zoom"><img alt=""></dialog>')).toEqual([
      'element-required-attributes',
    ]);
    expect(await rules('<svg class="shrink-0 shrink-0"></svg>')).toEqual(['no-dup-class']);
    expect(await rules('<a href="tel:+33478000000">04 78 00 00 00</a>')).toContain(
      'tel-non-breaking',
    );
    expect(await rules('<aside><p>Offre</p></aside><aside><p>Nouveautés</p></aside>')).toContain(
      'unique-landmark',
    );
    expect(await rules('<form method="dialog"><button>Fermer</button></form>')).toEqual([
      'no-implicit-button-type',
    ]);
    expect(await rules('<INPUT type="text" aria-label="x" ID="a">')).toContain('attr-case');
  });
});

describe('pagesToCheck', () => {
  it('takes the first built page of each kind, and the logged-in pages on the sandbox only', () => {
    const built = ['/', '/c/lits', '/c/matelas', '/marque/a', '/p/1/x', '/les-yeux-fermes/b'];
    const paths = pagesToCheck(built, false).map((p) => p.path);
    expect(paths).toContain('/c/matelas?sort=2');
    expect(paths).toContain('/p/1/x');
    expect(paths).toContain('/marque/a');
    expect(paths).toContain('/les-yeux-fermes/b');
    expect(paths).not.toContain('/espace-revendeur');
    expect(pagesToCheck(built, true).filter((p) => p.as === 'reseller')).toHaveLength(2);
  });
});
