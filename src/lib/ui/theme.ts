/**
 * Reads the theme variables of src/styles/global.css (as raw text) for the showcase pages, so
 * that /Design and /Tailwind always list the values the stylesheet really defines.
 */

export interface ThemeToken {
  /** Variable name without the leading `--`, e.g. `color-primary-500`. */
  name: string;
  value: string;
}

/** The `--prefix-*` variables declared in the `@theme` block of `css`, in source order. */
export function themeTokens(css: string, prefix: string): ThemeToken[] {
  const theme = /@theme\s*\{([\s\S]*?)\n\}/.exec(css)?.[1] ?? '';
  const tokens: ThemeToken[] = [];
  for (const match of theme.matchAll(/--([\w-]+):\s*([^;]+);/g)) {
    const [, name = '', value = ''] = match;
    if (name.startsWith(`${prefix}-`) && !name.endsWith('*')) {
      tokens.push({ name, value: value.replace(/\s+/g, ' ').trim() });
    }
  }
  return tokens;
}

/** Colour tokens grouped by family: `primary`, `secondary`, `neutral`, `status`... */
export function colourFamilies(css: string): Map<string, ThemeToken[]> {
  const families = new Map<string, ThemeToken[]>();
  for (const token of themeTokens(css, 'color')) {
    const family = /^color-(primary|secondary|neutral)-/.exec(token.name)?.[1] ?? 'other';
    families.set(family, [...(families.get(family) ?? []), token]);
  }
  return families;
}
