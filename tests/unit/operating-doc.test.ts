/**
 * `docs/operating.md` lists every warning and error line the shop writes in production, and
 * only those: the messages of the sources (`helpers/log-messages.ts` reads them) against the
 * first column of the page's tables under "Logs". A line added, reworded or removed without
 * the page fails here, and so does a row of the page no source writes any more.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { logCalls } from './helpers/log-messages.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Calls that write a line made elsewhere (the page describes them in a paragraph): a setting
 * refused at startup, the webhooks' refusal lines (their messages are listed where they are
 * made), an upstream entity left out (`refusedLine`), the publisher's picture step, a build
 * child's uncaught error, the drained stop's failures (`shutdown.ts`, through `shutdownLog`).
 */
const PASS_THROUGH = [
  'src/server/serve.ts console.error(',
  'src/server/serve.ts log.error(',
  'src/server/shutdown.ts log.error(',
  'src/server/webhooks/routes.ts log(',
  'src/shop/config/refused.ts console.warn(',
  'src/server/publish/publish-pictures.ts console.warn(',
  'src/server/publish/publish-pictures.ts console.error(',
  'scripts/lib/astro-build-child.ts console.error(',
];

/** A message with no words of its own: only a `[scope]` and values. */
const isPassThrough = (message: string | null) =>
  message === null || /^(\[[^\]]*\] )?…$/.test(message);

/** The messages the page lists: the first code span of each table row under "## Logs". */
function documented(): string[] {
  const page = readFileSync(path.join(root, 'docs/operating.md'), 'utf8');
  const logs = page.slice(page.indexOf('\n## Logs'));
  return [...logs.matchAll(/^\| `([^`]+)`/gm)].map((match) => match[1] ?? '');
}

describe('docs/operating.md lists every warning and error line', () => {
  const calls = logCalls(root);
  const written = calls.filter((call) => !isPassThrough(call.message));

  test('the sources were read (a scan that finds nothing proves nothing)', () => {
    expect(written.length).toBeGreaterThan(40);
    expect(written.map((call) => call.message)).toContain('[upstream] call failed');
  });

  test('every message written is a row of the page', () => {
    const rows = new Set(documented());
    const missing = written
      .filter((call) => !rows.has(call.message ?? ''))
      .map((call) => `${call.file}:${String(call.line)} ${call.message ?? ''}`);
    expect(missing).toEqual([]);
  });

  test('every row of the page is a message some source writes', () => {
    const messages = new Set(written.map((call) => call.message));
    expect(documented().filter((row) => !messages.has(row))).toEqual([]);
  });

  test('lines made elsewhere are only the known pass-throughs, each still there', () => {
    const passing = calls
      .filter((call) => isPassThrough(call.message))
      .map((call) => `${call.file} ${call.call}`);
    expect([...new Set(passing)].sort()).toEqual([...PASS_THROUGH].sort());
  });
});
