/**
 * The requirements live in the repository (`docs/requirements.md`), so a rule cited in the code
 * can be checked: every "§N" or "§N.M…" in a source, test, script or doc file names a heading of
 * that file (`## §N …`, `### §N.M …`). A standard's sections are written without the sign
 * ("RFC 9110 section 13"). Citations of the tracker ("issue N") are not kept in the files: a
 * comment says the reason itself, and the history keeps the rest.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REQUIREMENTS = 'docs/requirements.md';
const SELF = 'tests/unit/requirement-citations.test.ts';

/** Folders scanned (`sandbox/` once it exists), and the root files. */
const FOLDERS = ['src', 'scripts', 'sandbox', 'tests', 'docs'];
const ROOT_FILES = ['README.md', 'astro.config.mjs', 'eslint.config.js'];
/** Text files: code, markup, styles, docs, messages. */
const TEXT = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|astro|md|css|json|html|ya?ml)$/;
/** Vendor files kept as published (the OpenAPI contracts), and installed packages. */
const SKIPPED = /(?:^|\/)(?:node_modules|dist(?:-[^/]*)?|\.[^/]+)\/|^tests\/contracts\//;

/** `§N`, `§N.M`, `§N.M.K`… (a trailing dot ends the sentence, not the number). */
const CITATION = /§(\d+(?:\.\d+)*)/g;
/** A heading that defines a section: `## §2 Screens…`, `### §2.1 Route table`. */
const HEADING = /^#{2,6} §(\d+(?:\.\d+)*)[\s.]/gm;
/** A citation of the tracker: "issue 31", "Issue 7", "issue #19", "issue-8" (an anchor). */
const ISSUE = /\bissue[ -]?#?\d+/gi;

/** The section numbers `markdown` defines as headings. */
function sectionsOf(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(HEADING)].map(([, section]) => section ?? ''));
}

/** `file:line: match` for every match of `pattern` in `text` that `keep` refuses. */
function findings(
  file: string,
  text: string,
  pattern: RegExp,
  keep: (match: RegExpExecArray) => boolean,
): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      [...line.matchAll(pattern)]
        .filter((match) => !keep(match))
        .map((match) => `${file}:${index + 1}: ${match[0]}`),
    );
}

/** The scanned files, relative to the repository with forward slashes. */
function scannedFiles(): string[] {
  const inFolders = FOLDERS.filter((dir) => existsSync(path.join(ROOT, dir))).flatMap((dir) =>
    readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map(
      (file) => `${dir}/${file.split(path.sep).join('/')}`,
    ),
  );
  return [...inFolders.filter((file) => TEXT.test(file) && !SKIPPED.test(file)), ...ROOT_FILES];
}

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const sections = sectionsOf(read(REQUIREMENTS));
const files = scannedFiles().map((file) => ({ file, text: read(file) }));

describe('requirement citations', () => {
  test('the requirements define §1 to §9, and the scan sees the code that cites them', () => {
    for (const n of ['1', '2', '3', '4', '5', '6', '7', '8', '9']) expect(sections).toContain(n);
    const citing = files.filter(({ text }) => text.includes('§'));
    expect(citing.length).toBeGreaterThan(100);
    expect(files.map(({ file }) => file)).toContain('src/middleware.ts');
  });

  test('a section that does not exist is reported with its file and line', () => {
    const text = 'first line\n// spec §2 and spec §42, §2.1 and §9.99.\n';
    expect(findings('x.ts', text, CITATION, ([, n]) => sections.has(n ?? ''))).toEqual([
      'x.ts:2: §42',
      'x.ts:2: §9.99',
    ]);
  });

  test('every §N cited in the repository is a heading of docs/requirements.md', () => {
    const bad = files
      .filter(({ file }) => file !== SELF)
      .flatMap(({ file, text }) =>
        findings(file, text, CITATION, ([, n]) => sections.has(n ?? '')),
      );
    expect(bad, `sections missing from ${REQUIREMENTS}`).toEqual([]);
  });

  test('a tracker citation is reported with its file and line', () => {
    const text =
      '// fixed in issue 31\n/* Issue 7 */ see #store-webhooks-issue-8, no issues here\n';
    expect(findings('x.ts', text, ISSUE, () => false)).toEqual([
      'x.ts:1: issue 31',
      'x.ts:2: Issue 7',
      'x.ts:2: issue-8',
    ]);
  });

  test('no file cites "issue N": comments give the reason itself', () => {
    const bad = files
      .filter(({ file }) => file !== SELF)
      .flatMap(({ file, text }) => findings(file, text, ISSUE, () => false));
    expect(bad, 'tracker citations left').toEqual([]);
  });
});
