/**
 * URL slugs and the shop's public paths (spec §2 route table). A slug is at most
 * `MAX_SLUG_LENGTH` characters (`../shop-routes.ts`), ASCII only: every file system takes it as
 * a file name (a name of 130 "œ" gave a 260-character slug, and ENAMETOOLONG).
 */
import { MAX_SLUG_LENGTH } from '../shop-routes.ts';

// Letters that Unicode does not decompose into a base letter plus an accent.
const LIGATURES: Record<string, string> = {
  œ: 'oe',
  æ: 'ae',
  ß: 'ss',
  ø: 'o',
  ł: 'l',
  đ: 'd',
};

/**
 * A slug cut to `MAX_SLUG_LENGTH` characters: at its last hyphen within the limit when that
 * keeps at least half of it (a whole word is not cut), else at the limit. The same slug always
 * gives the same cut.
 */
export function capSlug(slug: string, max: number = MAX_SLUG_LENGTH): string {
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max + 1);
  const hyphen = cut.lastIndexOf('-');
  const head = hyphen >= max / 2 ? cut.slice(0, hyphen) : slug.slice(0, max);
  return head.replace(/-+$/, '');
}

/**
 * spec §2: lowercased, accents removed, every run of special characters and spaces collapsed
 * to one hyphen, no leading or trailing hyphen, at most `MAX_SLUG_LENGTH` characters
 * (`capSlug`). `Matelas Équilibre 140×190` → `matelas-equilibre-140-190`.
 */
export function slugify(name: string): string {
  // Longer input than a slug can use is not read (each character gives at most two).
  return capSlug(
    name
      .slice(0, MAX_SLUG_LENGTH * 8)
      .toLowerCase()
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .replace(/[œæßøłđ]/g, (letter) => LIGATURES[letter] ?? letter)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, ''),
  );
}

/** Last non-empty segment of a path: `/matelas/ressorts/` → `ressorts`. */
function lastSegment(path: string): string {
  return path.split('/').filter(Boolean).at(-1) ?? '';
}

/** Path without trailing slashes and with exactly one leading slash; `''` for the root. */
function trimSlashes(path: string): string {
  const inner = path.split('/').filter(Boolean).join('/');
  return inner === '' ? '' : `/${inner}`;
}

/**
 * `/p/{id}/{slug}` (spec §2). A name with no letter or digit at all gets the slug `produit`, so
 * the path never ends with a slash (which would be redirected).
 */
export function productPath(product: { id: number; name: string }): string {
  return `/p/${product.id}/${slugify(product.name) || 'produit'}`;
}

/** `/c` + the category url without its trailing slash: `/matelas/ressorts/` → `/c/matelas/ressorts`. */
export function categoryPath(url: string): string {
  return `/c${trimSlashes(url)}`;
}

/**
 * `/marque/{slug}`, the slug taken from the last segment of the brand's custom url (upstream
 * `/dunlopillo/` or already `/marque/dunlopillo`), else from its name.
 */
export function brandPath(brand: { name: string; url?: string | null | undefined }): string {
  const slug = slugify(lastSegment(brand.url ?? '')) || slugify(brand.name);
  return `/marque/${slug || 'marque'}`;
}
