/**
 * The warning and error lines the shop writes in production, read from its sources: each call
 * of `log.warn(`, `log.error(` (the server's logger, `src/shop/config/log.ts`), `logError(` (the
 * supervisor's error lines, `src/server/rebuild/`), the webhooks' warning lines (`log(` and
 * `refusalLog(` in `src/server/webhooks/`) and the plain `console.warn(` / `console.error(`
 * lines of the build and the publisher, with its message: the string argument, each `${…}`
 * written `…`. `docs/operating.md` lists them (tests/unit/operating-doc.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface LogCall {
  file: string;
  line: number;
  /** The call as written up to its parenthesis (`log.warn(`). */
  call: string;
  /** The message with values as `…`, or null when the argument is no string (a pass-through). */
  message: string | null;
}

/**
 * What runs in production: the server and its supervisor, the shop's server side, the build
 * and the kept build that publishes (`npm start`, `scripts/build.ts` and its child). The other
 * scripts (checks, benches, tests) are tools whose output is read by whoever runs them.
 */
const ROOTS = [
  'src/server',
  'src/shop',
  'scripts/start.ts',
  'scripts/build.ts',
  'scripts/lib/astro-build-child.ts',
  'scripts/lib/upstream.ts',
];
const CALL = /(?<![\w$])(?:log\.(?:warn|error)|console\.(?:warn|error))\(/g;
/** The supervisor's error lines (`src/server/rebuild/`), written by `log.error` by default. */
const SUPERVISOR_CALL = /(?<![\w$])(?:this\.#options\.|options\.)?logError\(/g;
const WEBHOOK_CALL = /(?<![\w$.])(?:log|refusalLog|options\.log)\(/g;

function files(root: string, at: string): string[] {
  const full = path.join(root, at);
  if (at.endsWith('.ts')) return [at];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|astro|mjs)$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** The text of the arguments of the call whose `(` is at `open`, up to its `)`. */
function argumentsAt(source: string, open: number): string {
  let depth = 0;
  let quote: string | null = null;
  const templates: number[] = [];
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (quote !== null) {
      if (c === '\\') i++;
      else if (quote === '`' && c === '$' && source[i + 1] === '{') {
        templates.push(depth);
        quote = null;
        depth++;
        i++;
      } else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') {
      depth--;
      if (c === '}' && templates.at(-1) === depth) {
        templates.pop();
        quote = '`';
      } else if (depth === 0) return source.slice(open + 1, i);
    }
  }
  throw new Error('unclosed call');
}

/** Splits arguments at their top-level commas. */
function topLevel(args: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < args.length; i++) {
    const c = args[i];
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(args.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(args.slice(start).trim());
  return parts.filter((part) => part !== '');
}

/** A string argument (literals joined by `+`) as a message, or null. */
function messageOf(arg: string): string | null {
  const pieces = arg.split(/\s*\+\s*(?=['"`])/);
  if (!pieces.every((piece) => /^(['"`])[\s\S]*\1$/.test(piece))) return null;
  const text = pieces
    .map((piece) => piece.slice(1, -1))
    .join('')
    .replace(/\$\{(?:[^{}]|\{[^{}]*\})*\}/g, '…')
    .replace(/\\(['"`])/g, '$1')
    .replace(/…(?:\s*…)+/g, '…');
  return text.replace(/\s+/g, ' ').trim();
}

/** Every warning and error call of the server's sources under `root`. */
export function logCalls(root: string): LogCall[] {
  const calls: LogCall[] = [];
  for (const base of ROOTS) {
    for (const file of files(root, base)) {
      const source = readFileSync(path.join(root, file), 'utf8');
      const patterns = [CALL];
      if (file.startsWith('src/server/rebuild/')) patterns.push(SUPERVISOR_CALL);
      if (file.startsWith('src/server/webhooks/')) patterns.push(WEBHOOK_CALL);
      for (const pattern of patterns) {
        for (const match of source.matchAll(pattern)) {
          const open = match.index + match[0].length - 1;
          const before = source.slice(source.lastIndexOf('\n', match.index) + 1, match.index);
          if (/^\s*(\*|\/\/)/.test(before)) continue; // a comment
          const args = topLevel(argumentsAt(source, open));
          if (/^[\w$]+\??\s*:/.test(args[0] ?? '')) continue; // a declaration, not a call
          const message = args.map(messageOf).find((text) => text !== null) ?? null;
          calls.push({
            file,
            line: source.slice(0, match.index).split('\n').length,
            call: match[0],
            message,
          });
        }
      }
    }
  }
  return calls;
}
