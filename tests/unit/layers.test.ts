/**
 * Imports only go down (scripts/lib/layers.js, docs/architecture.md "Layers"): the import
 * graph of `src/`, read with resolved paths (static, dynamic and type-only imports, the
 * frontmatter and scripts of `.astro` files), has no edge a layer forbids. ESLint says the
 * same in the editor from the same table; this test also sees what a specifier hides (an
 * import through `index.ts`, a path written oddly).
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { importGraph } from '../../scripts/lib/import-graph.ts';
import { FORBIDDEN, forbiddenEdge, layerOf } from '../../scripts/lib/layers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

describe('the layers of src/', () => {
  const graph = importGraph([path.join(ROOT, 'src')]);

  test('the graph sees the layers', () => {
    const layers = new Set([...graph.edges.keys()].map((file) => layerOf(rel(file))));
    for (const layer of Object.keys(FORBIDDEN)) expect(layers, layer).toContain(layer);
    expect(graph.edges.size).toBeGreaterThan(400);
  });

  test('no import runs back up', () => {
    const wrong: string[] = [];
    for (const [from, targets] of graph.edges) {
      for (const to of targets) {
        const broken = forbiddenEdge(rel(from), rel(to));
        if (broken !== null) wrong.push(`${broken}: ${rel(from)} imports ${rel(to)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test('every file of src/ is in a layer', () => {
    const loose = [...graph.edges.keys()].map(rel).filter((file) => layerOf(file) === null);
    expect(loose).toEqual([]);
  });

  test('the table forbids what the architecture says', () => {
    // lib never imports components, islands, pages or the engine.
    for (const to of [
      'src/components/a.astro',
      'src/islands/A.tsx',
      'src/pages/a.astro',
      'src/server/a.ts',
    ]) {
      expect(forbiddenEdge('src/lib/commerce/a.ts', to), to).not.toBeNull();
    }
    // Pages and components import no connector; pages may call the API's endpoint module.
    expect(
      forbiddenEdge('src/pages/a.astro', 'src/shop/connectors/bigcommerce/index.ts'),
    ).not.toBeNull();
    expect(
      forbiddenEdge('src/components/a.astro', 'src/shop/connectors/http/cache.ts'),
    ).not.toBeNull();
    expect(
      forbiddenEdge('src/pages/api/[service]/[method].ts', 'src/shop/api/handle.ts'),
    ).toBeNull();
    // Components and islands are siblings.
    expect(forbiddenEdge('src/components/a.astro', 'src/islands/A.tsx')).not.toBeNull();
    expect(forbiddenEdge('src/islands/A.tsx', 'src/components/ui/a.astro')).not.toBeNull();
    // Down is allowed; the sandbox is never the shop's.
    expect(forbiddenEdge('src/pages/a.astro', 'src/shop/loaders/a.ts')).toBeNull();
    expect(forbiddenEdge('src/shop/loaders/a.ts', 'sandbox/server.ts')).not.toBeNull();
  });
});
