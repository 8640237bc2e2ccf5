/**
 * No import cycle anywhere in src/, scripts/ and the sandbox (type-only imports included): a
 * module's dependencies are below it, never around it. The graph is read with TypeScript's
 * pre-processor (`scripts/lib/import-graph.ts`), a second or so for the whole tree.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { importCycles, importGraph } from '../../scripts/lib/import-graph.ts';

const root = path.resolve(import.meta.dirname, '../..');
const relative = (file: string) => path.relative(root, file);

describe('import cycles', () => {
  test('none in src/, scripts/ and sandbox/', () => {
    const { edges, unresolved } = importGraph(
      ['src', 'scripts', 'sandbox/src', 'sandbox/tests'].map((dir) => path.join(root, dir)),
    );
    // Every relative import names a file (else an edge, and a cycle, could go unseen).
    expect(unresolved.map((line) => line.replace(`${root}/`, ''))).toEqual([]);
    // The walk found the tree: the pages, the connectors, the scripts.
    expect(edges.size).toBeGreaterThan(300);
    // Type-only imports and the frontmatter of components are edges too.
    const importsOf = (file: string) => edges.get(path.join(root, file))?.map(relative);
    expect(importsOf('src/shop/connectors/bigcommerce/cart.ts')).toContain(
      'src/shop/connectors/bigcommerce/client.ts',
    );
    expect(importsOf('src/layouts/BaseLayout.astro')).toContain(
      'src/components/layout/BaseHead.astro',
    );
    expect(importsOf('sandbox/src/server.ts')).toContain('sandbox/src/http.ts');
    expect(importCycles(edges).map((cycle) => cycle.map(relative).join(' → '))).toEqual([]);
    // A second on a quiet machine; room for a loaded one.
  }, 60_000);

  test('a cycle is found and shown as a closed path; a diamond is not a cycle', () => {
    const graph = new Map([
      ['a', ['b', 'c']],
      ['b', ['d']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['b']],
      ['f', ['f']],
      ['g', []],
    ]);
    const cycles = importCycles(graph);
    expect(cycles).toHaveLength(2);
    expect(cycles).toContainEqual(['f', 'f']);
    const knot = cycles.find((cycle) => cycle.length > 2);
    expect(knot?.at(0)).toBe(knot?.at(-1));
    expect(new Set(knot)).toEqual(new Set(['b', 'd', 'e']));
    expect(
      importCycles(new Map([...graph].filter(([file]) => file !== 'e' && file !== 'f'))),
    ).toEqual([]);
  });
});
