/**
 * Where a build's time goes: reads a V8 `.cpuprofile` (from `BUILD_CPU_PROF=dir`, see
 * scripts/lib/astro-build-child.ts) and prints the main thread's time by group (a package of
 * node_modules, a file of src/, a Node built-in, V8's own GC, idle time waiting on native work
 * or I/O), self and inclusive (time with that group anywhere on the stack), then the top files
 * and functions by self time. Positions in Astro's bundled chunks are read back to their sources
 * with the chunks' source maps (kept by the profiling build beside the profile).
 *
 * Usage: node scripts/lib/profile-summary.ts FILE.cpuprofile [--chunks DIR] [--top N]
 *   [--focus GROUP] (inclusive time of GROUP's callers and callees).
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code comes from, after source maps. */
export interface Origin {
  /** `astro`, `zod`, `src/components/layout`, `node:fs`, `(garbage collector)`... */
  group: string;
  /** Source file, relative to the repository when it is one of ours. */
  file: string;
  line: number;
}

const SPECIAL = new Set(['(garbage collector)', '(program)', '(idle)', '(root)']);

/** The group of a source path: a package of node_modules, a folder of src/, or the file. */
export function groupOf(file: string): string {
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  // Last node_modules segment: a dependency's own dependency is that package.
  const all = [...file.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)];
  const last = all.at(-1)?.[1] ?? nm?.[1];
  if (last !== undefined) return last;
  if (file.startsWith('node:')) {
    if (file.includes('undici')) return 'node:undici (fetch)';
    if (file.includes('zlib')) return 'node:zlib';
    if (/fs|streams/.test(file)) return 'node:fs/streams';
    if (/modules|bootstrap|amaro|source_map/.test(file)) return 'node:module loading';
    return 'node:other';
  }
  if (file.startsWith('wasm://')) return 'wasm';
  const src = /(?:^|\/)src\/(.*)$/.exec(file);
  if (src?.[1] !== undefined) {
    const parts = src[1].split('/');
    return parts.length > 2 ? `src/${parts.slice(0, 2).join('/')}` : `src/${parts.join('/')}`;
  }
  const scripts = /(?:^|\/)scripts\/(.*)$/.exec(file);
  if (scripts?.[1] !== undefined) return `scripts/${scripts[1]}`;
  return file === '' ? '(native)' : file;
}

/** A frame as the attribution rules see it. */
interface Frame {
  functionName: string;
  /** Source file after source maps (relative to the repository for ours). */
  file: string;
  group: string;
}

/**
 * Build phases, by priority: a sample belongs to the first phase one of its frames matches.
 * Samples without a stack (GC, idle, program) take the phase of the sample before them.
 */
const PHASES: readonly (readonly [string, (f: Frame) => boolean])[] = [
  [
    'getStaticPaths (catalogue data)',
    (f) => f.functionName === 'callGetStaticPaths' || f.functionName === 'getStaticPaths',
  ],
  [
    'content sync (loaders, store)',
    (f) =>
      /astro\/dist\/content\/(content-layer|loaders|data-store|mutable-data-store|utils)/.test(
        f.file,
      ) || f.file.endsWith('catalogue-source.ts'),
  ],
  ['optimised images', (f) => f.file.includes('astro/dist/assets/build/')],
  ['prerendering pages', (f) => f.file.includes('astro/dist/core/build/generate.js')],
  [
    'bundling (vite, rolldown, tailwind)',
    (f) =>
      /^(vite|rolldown|@rolldown\/.*|@tailwindcss\/.*|tailwindcss|lightningcss|esbuild|postcss)$/.test(
        f.group,
      ),
  ],
];

/** What the time is spent on, from the leaf up: the first frame one of these names. */
function detailOf(stack: readonly Frame[]): string {
  for (const f of stack) {
    if (f.functionName === 'compileSourceTextModule') return 'compiling a JS module';
    const g = f.group;
    if (g === 'zod') return 'zod';
    if (g === 'i18next' || g.startsWith('src/lib/i18n') || f.file.includes('lib/i18n/')) {
      return 'i18n (i18next, pickMessages, translate)';
    }
    if (g === 'react-dom' || g === 'react' || g === '@astrojs/react') return 'React SSR of islands';
    if (g === 'devalue' || f.file.includes('astro/dist/runtime/server/serialize.js')) {
      return 'island props serialisation (devalue)';
    }
    if (
      /^(sanitize-html|htmlparser2|domhandler|domutils|entities|dom-serializer|parse-srcset|postcss)$/.test(
        g,
      )
    ) {
      return 'sanitize-html';
    }
    // Astro reads each rendered page through a web Response: undici's streams, not the network,
    // unless a loader is fetching.
    if (g === 'node:undici (fetch)') return 'undici (fetch, Response bodies)';
    if (g === 'sharp') return 'sharp';
  }
  const leaf = stack[0];
  if (!leaf) return '(none)';
  if (
    leaf.group.startsWith('src/') ||
    /^(components|lib|pages|layouts|islands)\//.test(leaf.group)
  ) {
    return 'our code (src/), self';
  }
  if (leaf.group === 'astro') return 'Astro runtime';
  if (leaf.group === '(native)') return `native: ${leaf.functionName || '?'}`;
  return leaf.group;
}

/** Reads source maps of bundled chunks, cached per chunk. */
class ChunkMaps {
  private readonly maps = new Map<string, { map: SourceMap; dir: string } | null>();
  private readonly chunksDir: string | null;
  private readonly root: string;

  constructor(chunksDir: string | null, root: string) {
    this.chunksDir = chunksDir;
    this.root = root;
  }

  /** The copy of a chunk kept beside the profile for a chunk path of the build. */
  private localPath(file: string): string | null {
    if (existsSync(`${file}.map`)) return file;
    if (this.chunksDir === null) return null;
    const at = file.lastIndexOf('/server/');
    if (at < 0) return null;
    const copy = path.join(this.chunksDir, file.slice(at + 1));
    return existsSync(`${copy}.map`) ? copy : null;
  }

  resolve(file: string, line: number, column: number): { file: string; line: number } | null {
    let entry = this.maps.get(file);
    if (entry === undefined) {
      entry = null;
      const local = this.localPath(file);
      if (local !== null) {
        try {
          const payload = JSON.parse(readFileSync(`${local}.map`, 'utf8')) as ConstructorParameters<
            typeof SourceMap
          >[0];
          // Sources are relative to where the chunk was built, not to the copy.
          entry = { map: new SourceMap(payload), dir: path.dirname(file) };
        } catch {
          entry = null;
        }
      }
      this.maps.set(file, entry);
    }
    if (entry === null) return null;
    const found = entry.map.findEntry(line, column);
    if (!('originalSource' in found)) return null;
    let source = found.originalSource;
    if (source.startsWith('file://')) source = fileURLToPath(source);
    else if (!path.isAbsolute(source)) source = path.resolve(entry.dir, source);
    return { file: path.relative(this.root, source), line: found.originalLine + 1 };
  }
}

function toPath(url: string): string {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url);
    } catch {
      return url;
    }
  }
  return url;
}

export interface Summary {
  totalMs: number;
  /** Phase → detail → ms. */
  phases: Map<string, Map<string, number>>;
  self: Map<string, number>;
  inclusive: Map<string, number>;
  files: Map<string, number>;
  functions: Map<string, number>;
}

/** Self and inclusive milliseconds by group, self by file and by function. */
export function summarise(
  profile: CpuProfile,
  options: { chunksDir?: string | null; root?: string } = {},
): Summary {
  const root = options.root ?? process.cwd();
  const maps = new ChunkMaps(options.chunksDir ?? null, root);
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const origins = new Map<number, Origin>();
  const originOf = (node: ProfileNode): Origin => {
    let origin = origins.get(node.id);
    if (origin) return origin;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    if (SPECIAL.has(functionName)) {
      origin = { group: functionName, file: functionName, line: 0 };
    } else {
      const file = toPath(url);
      const mapped =
        file.endsWith('.mjs') || file.endsWith('.js')
          ? maps.resolve(file, lineNumber, columnNumber)
          : null;
      const shown = mapped?.file ?? (path.isAbsolute(file) ? path.relative(root, file) : file);
      origin = {
        // Our files by their path in the repository (`src/lib/...`), not the absolute one.
        group: groupOf(
          mapped?.file ?? (file.startsWith(`${root}/`) ? path.relative(root, file) : file),
        ),
        file: shown,
        line: mapped?.line ?? lineNumber + 1,
      };
    }
    origins.set(node.id, origin);
    return origin;
  };
  // Groups on the stack of each node (root to node), memoised as a joined key.
  const stackGroups = new Map<number, string[]>();
  const groupsOf = (id: number): string[] => {
    const known = stackGroups.get(id);
    if (known) return known;
    const chain: number[] = [];
    let current: number | undefined = id;
    while (current !== undefined && !stackGroups.has(current)) {
      chain.push(current);
      current = parent.get(current);
    }
    let groups = current === undefined ? [] : (stackGroups.get(current) ?? []);
    for (let i = chain.length - 1; i >= 0; i--) {
      const nodeId = chain[i] ?? 0;
      const node = byId.get(nodeId);
      const origin = node ? originOf(node) : null;
      const group = origin?.group ?? '(unknown)';
      groups = groups.includes(group) || group === '(root)' ? groups : [...groups, group];
      // Our own files count on their own too (a component's time with what it calls).
      const file = origin?.file ?? '';
      if (file.startsWith('src/') && !groups.includes(file)) groups = [...groups, file];
      stackGroups.set(nodeId, groups);
    }
    return groups;
  };

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const files = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => {
    map.set(key, (map.get(key) ?? 0) + ms);
  };
  const phases = new Map<string, Map<string, number>>();
  const stackOf = (node: ProfileNode): Frame[] => {
    const frames: Frame[] = [];
    let current: ProfileNode | undefined = node;
    while (current) {
      const origin = originOf(current);
      if (origin.group !== '(root)') {
        frames.push({
          functionName: current.callFrame.functionName,
          file: origin.file,
          group: origin.group,
        });
      }
      const up = parent.get(current.id);
      current = up === undefined ? undefined : byId.get(up);
    }
    return frames;
  };
  const phaseCache = new Map<number, { phase: string | null; detail: string }>();
  let lastPhase = 'startup, config';
  let totalMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    // A sample's time is the delta to the next one (the last one gets the average).
    const next = profile.timeDeltas[i + 1];
    const ms = (next ?? profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(profile.samples[i] ?? -1);
    if (!node) continue;
    totalMs += ms;
    const origin = originOf(node);
    add(self, origin.group, ms);
    add(files, origin.file, ms);
    const name = node.callFrame.functionName || '(anonymous)';
    add(functions, `${name}  ${origin.file}:${origin.line}`, ms);
    for (const group of groupsOf(node.id)) add(inclusive, group, ms);
    let attributed = phaseCache.get(node.id);
    if (!attributed) {
      if (SPECIAL.has(node.callFrame.functionName)) {
        attributed = { phase: null, detail: node.callFrame.functionName };
      } else {
        const stack = stackOf(node);
        const phase = PHASES.find(([, test]) => stack.some(test))?.[0] ?? null;
        attributed = { phase, detail: detailOf(stack) };
      }
      phaseCache.set(node.id, attributed);
    }
    // GC, idle and program samples belong to whatever ran before them.
    const phase = attributed.phase ?? lastPhase;
    if (attributed.phase !== null) lastPhase = attributed.phase;
    let details = phases.get(phase);
    if (!details) phases.set(phase, (details = new Map<string, number>()));
    add(details, attributed.detail, ms);
  }
  return { totalMs, phases, self, inclusive, files, functions };
}

function top(map: Map<string, number>, n: number): [string, number][] {
  return [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
}

function printTable(
  title: string,
  rows: [string, number][],
  totalMs: number,
  extra?: Map<string, number>,
): void {
  console.log(`\n${title}`);
  for (const [key, ms] of rows) {
    const share = ((100 * ms) / totalMs).toFixed(1).padStart(5);
    const more =
      extra === undefined
        ? ''
        : `  inclusive ${((extra.get(key) ?? 0) / 1000).toFixed(1).padStart(6)} s ${((100 * (extra.get(key) ?? 0)) / totalMs).toFixed(1).padStart(5)} %`;
    console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s ${share} %${more}  ${key}`);
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const file = args.find((a) => a.endsWith('.cpuprofile'));
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (!file) {
    console.error(
      'usage: node scripts/lib/profile-summary.ts FILE.cpuprofile [--chunks DIR] [--top N]',
    );
    process.exit(2);
  }
  const n = Number(flag('--top') ?? 25);
  const guessed = path.join(
    path.dirname(file),
    path.basename(file, '.cpuprofile').replace(/^astro-build-/, 'chunks-'),
  );
  const chunksDir = flag('--chunks') ?? (existsSync(guessed) ? guessed : null);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const summary = summarise(profile, { chunksDir });
  const wall = (profile.endTime - profile.startTime) / 1e6;
  console.log(
    `[profile] ${file}: ${wall.toFixed(1)} s of main thread, ${profile.samples.length} samples` +
      (chunksDir ? `, chunks mapped from ${chunksDir}` : ', no chunk source maps'),
  );
  console.log('\nBy build phase, and within each what the time is spent on');
  const phaseRows = [...summary.phases]
    .map(
      ([phase, details]) =>
        [phase, [...details.values()].reduce((a, b) => a + b, 0), details] as const,
    )
    .sort((a, b) => b[1] - a[1]);
  for (const [phase, ms, details] of phaseRows) {
    console.log(
      `  ${(ms / 1000).toFixed(1).padStart(7)} s ${((100 * ms) / summary.totalMs).toFixed(1).padStart(5)} %  ${phase}`,
    );
    for (const [detail, dms] of top(details, 12)) {
      if (dms < summary.totalMs / 500) continue;
      console.log(`      ${(dms / 1000).toFixed(1).padStart(7)} s  ${detail}`);
    }
  }
  printTable(
    'By group (self time; inclusive = that group anywhere on the stack)',
    top(summary.self, n),
    summary.totalMs,
    summary.inclusive,
  );
  printTable('Inclusive time, largest groups', top(summary.inclusive, n), summary.totalMs);
  printTable(
    'Our files (src/), inclusive: with everything they call',
    top(new Map([...summary.inclusive].filter(([key]) => /^src\/.*\.\w+$/.test(key))), n),
    summary.totalMs,
  );
  printTable('Files by self time', top(summary.files, n), summary.totalMs);
  printTable('Functions by self time', top(summary.functions, n), summary.totalMs);
}
