/**
 * The import graph of the project's own code and its cycles (tests/unit/import-cycles.test.ts:
 * none may exist in src/ or scripts/). Imports are read with TypeScript's pre-processor (no
 * type check, a second for the whole tree): static and dynamic imports, `export ... from`,
 * type-only imports too (a cycle of types is a knot all the same), in .ts, .tsx, .js, .mjs and
 * the frontmatter and scripts of .astro files. Only relative specifiers are edges; a package or
 * `astro:` module is not ours.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|astro)$/;
const RESOLVED = ['', '.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.js'];

export interface ImportGraph {
  /** Each source file (absolute path) with the files it imports. */
  edges: Map<string, string[]>;
  /** Relative specifiers that name no file: `file: specifier`. */
  unresolved: string[];
}

function sourceFiles(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(file, found);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(file);
  }
  return found;
}

/** The code of a file that may import: all of a module, the frontmatter and scripts of a component. */
function importingCode(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (!file.endsWith('.astro')) return text;
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  return [frontmatter, ...scripts].join('\n');
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier.replace(/[?#].*$/, ''));
  return RESOLVED.map((ending) => base + ending).find((f) => existsSync(f) && statSync(f).isFile());
}

/** The graph of the source files under `dirs` (absolute paths). */
export function importGraph(dirs: readonly string[]): ImportGraph {
  const edges = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const file of dirs.flatMap((dir) => sourceFiles(dir))) {
    const { importedFiles } = ts.preProcessFile(importingCode(file), true, true);
    const targets: string[] = [];
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith('./') && !specifier.startsWith('../')) continue;
      const target = resolveImport(file, specifier);
      if (target === undefined) unresolved.push(`${file}: ${specifier}`);
      else targets.push(target);
    }
    edges.set(file, targets);
  }
  return { edges, unresolved };
}

/**
 * The cycles of a graph: each strongly connected component of more than one file (or a file
 * importing itself), as one closed path through it (`a → b → a`). Tarjan's algorithm.
 */
export function importCycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component = new Set<string>();
    let top: string | undefined;
    do {
      top = stack.pop();
      if (top === undefined) break;
      onStack.delete(top);
      component.add(top);
    } while (top !== file);
    if (component.size > 1 || (edges.get(file) ?? []).includes(file)) {
      cycles.push(closedPath(file, component, edges));
    }
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** A shortest path from `start` back to itself inside `component` (breadth first). */
function closedPath(
  start: string,
  component: ReadonlySet<string>,
  edges: ReadonlyMap<string, readonly string[]>,
): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  // An array's iterator also visits what is pushed while it runs: the queue of the search.
  for (const file of queue) {
    for (const next of edges.get(file) ?? []) {
      if (!component.has(next)) continue;
      if (next === start) {
        const route: string[] = [];
        for (let at: string | undefined = file; at !== undefined && at !== start;) {
          route.unshift(at);
          at = cameFrom.get(at);
        }
        return [start, ...route, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start, start];
}
