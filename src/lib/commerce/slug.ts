/**
 * URL slugs and the shop's public paths (spec §2 route table).
 */

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
 * spec §2: lowercased, accents removed, every run of special characters and spaces collapsed
 * to one hyphen, no leading or trailing hyphen. `Matelas Équilibre 140×190` → `matelas-equilibre-140-190`.
 */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[œæßøłđ]/g, (letter) => LIGATURES[letter] ?? letter)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
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
