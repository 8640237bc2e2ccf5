/**
 * The category pages of a built release, for `npm run bench:rebuild`: each with the product
 * pages its page 1 links (the products the bench renames).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Pre-rendered category pages of a release and the product pages each lists (page 1). */
export function categoryListings(clientDir: string): { category: string; products: string[] }[] {
  const found: { category: string; products: string[] }[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}/${entry.name}`);
      else if (entry.name.endsWith('.html')) {
        const html = readFileSync(path.join(dir, entry.name), 'utf8');
        const links = [...html.matchAll(/href="(\/p\/\d+\/[^"?#]+)"/g)].map((m) => m[1] ?? '');
        found.push({
          category: `${prefix}/${entry.name.slice(0, -5)}`,
          products: [...new Set(links)],
        });
      }
    }
  };
  walk(path.join(clientDir, 'c'), '/c');
  return found.sort((a, b) => a.category.localeCompare(b.category));
}
