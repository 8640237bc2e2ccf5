/**
 * Technology blocks of a product page (spec §7 content service, `productContent` entries with
 * the `ProductContentTechnologies` component): matched by name, case aside, to the values of
 * the product's `technology` custom field. Pure.
 */
import type { Technology } from './types.ts';

/** The key a technology and a product's `technology` value are matched on. */
export function technologyKey(name: string): string {
  return name.trim().toLowerCase();
}

/** Technology blocks of a product's `technology` names, in the product's order. */
export function technologiesFor(
  technologies: readonly Technology[],
  names: readonly string[],
): Technology[] {
  const byName = new Map(
    technologies.map((technology) => [technology.name.toLowerCase(), technology]),
  );
  return names.flatMap((name) => {
    const technology = byName.get(technologyKey(name));
    return technology ? [technology] : [];
  });
}
