/**
 * The README and the pages of `docs/` stay true as files move: the README is a front door of
 * at most 12 KB whose map names every folder of the repository and of `src/`; every relative
 * link of README.md and docs/**.md names a file or folder of the repository (and a heading of
 * it when the link has an anchor); every backticked repository path (`src/…`, `scripts/…`,
 * `docs/…`, `tests/…`, `sandbox/…`, `public/…`) names one that exists. A placeholder segment
 * (`<service>`, `{id}`, `*`) matches any name.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const README_MAX_BYTES = 12 * 1024;
const PATH_PREFIXES = ['src', 'scripts', 'docs', 'tests', 'sandbox', 'public'];

const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** README.md and every Markdown file under docs/, as repository paths. */
function markdownFiles(): string[] {
  const files = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.md')) files.push(file);
    }
  };
  walk('docs');
  return files;
}

interface Found {
  text: string;
  line: number;
}

/** The lines of a Markdown text with fenced code blocks blanked (line numbers kept). */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** Inline code spans of the prose (a span does not cross a line in these files). */
function codeSpans(markdown: string): Found[] {
  return proseLines(markdown).flatMap((line, index) =>
    [...line.matchAll(/`([^`]+)`/g)].map(([, text]) => ({ text: text ?? '', line: index + 1 })),
  );
}

/** Link targets of the prose: inline links and images, and reference definitions. */
function linkTargets(markdown: string): Found[] {
  return proseLines(markdown).flatMap((line, index) => {
    const text = line.replace(/`[^`]*`/g, '');
    const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
    const reference = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?([^\s>]+)>?/g)];
    return [...inline, ...reference].map(([, target]) => ({
      text: target ?? '',
      line: index + 1,
    }));
  });
}

/** GitHub's anchor of each heading of a Markdown text, duplicates numbered as GitHub does. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const isPlaceholder = (segment: string) => /[<>{}*]|\.\.\.|…/.test(segment);

/** A segment with placeholders as a pattern over names. */
function segmentPattern(segment: string): RegExp {
  const source = segment
    .split(/(<[^>]*>|\{[^}]*\}|\*|\.\.\.|…)/)
    .map((part, i) =>
      i % 2 === 1 ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`),
    )
    .join('');
  return new RegExp(`^${source}$`);
}

/** Whether a repository path exists; a trailing `/` asks for a folder. */
function pathExists(repositoryPath: string): boolean {
  const wantsFolder = repositoryPath.endsWith('/');
  let candidates = [root];
  for (const segment of repositoryPath.split('/').filter((s) => s !== '')) {
    candidates = candidates.flatMap((dir) => {
      if (!isPlaceholder(segment)) {
        const next = path.join(dir, segment);
        return existsSync(next) ? [next] : [];
      }
      if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
      const pattern = segmentPattern(segment);
      return readdirSync(dir)
        .filter((name) => pattern.test(name))
        .map((name) => path.join(dir, name));
    });
  }
  return candidates.some((found) => !wantsFolder || statSync(found).isDirectory());
}

/** The repository path a code span names, or undefined when it names none. */
function spanPath(span: string): string | undefined {
  const [first, ...rest] = span.split('/');
  if (first === undefined || rest.length === 0 || !PATH_PREFIXES.includes(first)) return undefined;
  if (/\s/.test(span)) return undefined;
  return span.replace(/:\d+(-\d+)?$/, '').replace(/#.*$/, '');
}

/** What `.gitignore` keeps out of the repository, for the names of top-level folders. */
function ignoredName(): (name: string) => boolean {
  const patterns = read('.gitignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('!'))
    .map((line) => line.replace(/^\//, '').replace(/\/$/, ''))
    .filter((line) => !line.includes('/'))
    .map(
      (line) =>
        new RegExp(
          `^${line.replace(/[.+?^${}()|[\]\\]/g, String.raw`\$&`).replaceAll('*', '[^/]*')}$`,
        ),
    );
  return (name) => patterns.some((pattern) => pattern.test(name));
}

function folders(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name);
}

const files = markdownFiles();
const readme = read('README.md');

describe('the README and docs/', () => {
  test('the files are found', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/settings.md');
    expect(files.length).toBeGreaterThan(5);
  });

  test('the README is a front door of at most 12 KB', () => {
    expect(Buffer.byteLength(readme, 'utf8')).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  test("the README's map names every folder of the repository and of src/", () => {
    const ignored = ignoredName();
    const named = new Set(codeSpans(readme).map((span) => span.text));
    const expected = [
      ...folders('.')
        .filter((name) => !ignored(name))
        .map((name) => `${name}/`),
      ...folders('src').map((name) => `src/${name}/`),
    ];
    expect(expected).toContain('src/');
    expect(expected).toContain('src/pages/');
    expect(expected.filter((folder) => !named.has(folder))).toEqual([]);
  });

  test('every relative link names a file or folder of the repository, and its anchor a heading', () => {
    const bad: string[] = [];
    for (const file of files) {
      for (const { text: target, line } of linkTargets(read(file))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:...
        const [targetPath = '', anchor] = target.split('#');
        const where = `${file}:${line} ${target}`;
        const resolved =
          targetPath === ''
            ? path.join(root, file)
            : path.resolve(path.dirname(path.join(root, file)), decodeURI(targetPath));
        if (!resolved.startsWith(root)) {
          bad.push(`${where}: outside the repository`);
        } else if (!existsSync(resolved)) {
          bad.push(`${where}: no such file or folder`);
        } else if (anchor !== undefined && resolved.endsWith('.md')) {
          const anchors = headingAnchors(readFileSync(resolved, 'utf8'));
          if (!anchors.has(anchor)) bad.push(`${where}: no such heading`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  test('every backticked repository path names a file or folder that exists', () => {
    const bad: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const { text, line } of codeSpans(read(file))) {
        const repositoryPath = spanPath(text);
        if (repositoryPath === undefined) continue;
        checked += 1;
        if (!pathExists(repositoryPath)) bad.push(`${file}:${line} \`${text}\``);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(bad).toEqual([]);
  });
});
