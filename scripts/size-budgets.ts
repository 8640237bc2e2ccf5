/**
 * Size budgets of the static output (`npm run test:budgets`): for every catalogue page (home,
 * category, product, brand), the JavaScript it loads (scripts, island components and
 * renderers, and their static imports) must stay within 100 KB gzipped, and its CSS (linked
 * and inline) within 25 KB gzipped, and it must draw no SVG as an image (`svgImages`).
 * Prints the heaviest page of each kind.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { readEnvironment } from '../src/shop/config/environment.ts';

export const BUDGETS = { jsKb: 100, cssKb: 25 } as const;

const distDir = readEnvironment(['DIST_DIR']).DIST_DIR;
const clientDir = path.resolve(distDir, 'client');
const gzCache = new Map<string, number>();

function gzSize(file: string): number {
  let size = gzCache.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(file), { level: 9 }).length;
    gzCache.set(file, size);
  }
  return size;
}

function assetFile(url: string, from = clientDir): string | null {
  if (/^(https?:)?\/\//.test(url)) return null;
  const file = url.startsWith('/') ? path.join(clientDir, url) : path.resolve(from, url);
  return existsSync(file) ? file : null;
}

/** The JS file and every module it statically imports. */
function jsClosure(entry: string, seen: Set<string>): void {
  if (seen.has(entry)) return;
  seen.add(entry);
  const source = readFileSync(entry, 'utf8');
  for (const match of source.matchAll(
    /(?:import|export)\s*(?:[^'"()]*?from\s*)?["']([^"']+\.m?js)["']/g,
  )) {
    const file = assetFile(match[1] ?? '', path.dirname(entry));
    if (file) jsClosure(file, seen);
  }
}

export function pageWeight(html: string): { jsBytes: number; cssBytes: number } {
  const js = new Set<string>();
  const urls = [
    ...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g),
    ...html.matchAll(/\s(?:component-url|renderer-url)="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1] ?? '');
  for (const url of urls) {
    const file = assetFile(url);
    if (file) jsClosure(file, js);
  }
  let inlineJs = '';
  for (const m of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    if (!/type="application\/(ld\+)?json"/.test(m[0])) inlineJs += m[1] ?? '';
  }
  let jsBytes = gzipSync(inlineJs).length;
  for (const file of js) jsBytes += gzSize(file);

  let cssBytes = 0;
  for (const m of html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)) {
    const file = assetFile(m[1] ?? '');
    if (file) cssBytes += gzSize(file);
  }
  const inlineCss = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)]
    .map((m) => m[1])
    .join('');
  cssBytes += gzipSync(inlineCss).length;
  return { jsBytes, cssBytes };
}

/**
 * The SVG files a page has the browser draw as images: `<img>` or `<source>` of an `.svg` or
 * `data:image/svg+xml`, an SVG icon link, and `url()`s to SVG in its CSS (linked, inline or in
 * style attributes). Chromium opens a whole document for each (frame, script context, layout,
 * font lookups), 5 to 10 ms of a throttled phone's main thread right while the page becomes
 * interactive: the shop draws its icons inline and its masks and favicon as PNG instead.
 */
export function svgImages(html: string, readCss: (href: string) => string | null): string[] {
  const isSvg = (url: string) => /^data:image\/svg\+xml|\.svg(?:[?#]|$)/i.test(url.trim());
  const found: string[] = [];
  for (const m of html.matchAll(/<(?:img|source)\b[^>]*>/gi)) {
    for (const attr of m[0].matchAll(/\s(?:src|srcset)="([^"]*)"/gi)) {
      for (const candidate of (attr[1] ?? '').split(',')) {
        const url = candidate.trim().split(/\s+/)[0] ?? '';
        if (isSvg(url)) found.push(`<img ${url.slice(0, 60)}>`);
      }
    }
  }
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = m[0];
    const href = /\shref="([^"]*)"/i.exec(tag)?.[1] ?? '';
    if (/\srel="[^"]*icon[^"]*"/i.test(tag) && !/apple-touch/i.test(tag) && isSvg(href)) {
      found.push(`<link icon ${href}>`);
    }
  }
  const sheets = [
    ...[...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) =>
      readCss(m[1] ?? ''),
    ),
    ...[...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? ''),
    ...[...html.matchAll(/\sstyle="([^"]*)"/g)].map((m) => (m[1] ?? '').replaceAll('&quot;', '"')),
  ];
  for (const css of sheets) {
    for (const m of (css ?? '').matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)/g)) {
      const url = m[1] ?? m[2] ?? m[3] ?? '';
      if (isSvg(url)) found.push(`url(${url.slice(0, 60)})`);
    }
  }
  return found;
}

function kindOf(relative: string): string | null {
  if (relative === 'index.html') return 'home';
  const first = relative.split(path.sep)[0];
  if (first === 'c') return 'category';
  if (first === 'p') return 'product';
  if (first === 'marque') return 'brand';
  if (first === 'les-yeux-fermes' || first === 'les-yeux-fermes.html') return 'sleep-content';
  // Other top-level pages: the content pages of the catch-all route (legal pages, help...).
  if (!relative.includes(path.sep) && /^[a-z0-9-]+\.html$/.test(relative)) return 'content';
  return null;
}

const cssCache = new Map<string, string | null>();
function readCss(href: string): string | null {
  if (!cssCache.has(href)) {
    const file = assetFile(href);
    cssCache.set(href, file ? readFileSync(file, 'utf8') : null);
  }
  return cssCache.get(href) ?? null;
}

function* htmlFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(full);
    else if (entry.name.endsWith('.html')) yield full;
  }
}

if (import.meta.main) {
  if (!existsSync(clientDir)) {
    console.error(`[budgets] ${clientDir} does not exist: build first (npm run build).`);
    process.exit(1);
  }
  const heaviest = new Map<string, { page: string; jsBytes: number; cssBytes: number }>();
  const failures: string[] = [];
  let pages = 0;
  for (const file of htmlFiles(clientDir)) {
    const relative = path.relative(clientDir, file);
    const kind = kindOf(relative);
    if (!kind) continue;
    pages++;
    const html = readFileSync(file, 'utf8');
    const weight = pageWeight(html);
    const svgs = svgImages(html, readCss);
    if (svgs.length > 0) {
      failures.push(`${relative}: draws SVG as an image (${svgs.slice(0, 3).join(', ')})`);
    }
    const current = heaviest.get(kind);
    if (!current || weight.jsBytes + weight.cssBytes > current.jsBytes + current.cssBytes) {
      heaviest.set(kind, { page: relative, ...weight });
    }
    if (weight.jsBytes > BUDGETS.jsKb * 1024) {
      failures.push(
        `${relative}: JS ${(weight.jsBytes / 1024).toFixed(1)} KB > ${BUDGETS.jsKb} KB`,
      );
    }
    if (weight.cssBytes > BUDGETS.cssKb * 1024) {
      failures.push(
        `${relative}: CSS ${(weight.cssBytes / 1024).toFixed(1)} KB > ${BUDGETS.cssKb} KB`,
      );
    }
  }
  for (const kind of ['home', 'category', 'product', 'brand', 'sleep-content', 'content']) {
    const h = heaviest.get(kind);
    if (!h) {
      failures.push(`no ${kind} page found in ${clientDir}`);
      continue;
    }
    console.log(
      `[budgets] ${kind.padEnd(8)} heaviest ${h.page}: JS ${(h.jsBytes / 1024).toFixed(1)} KB gz, CSS ${(h.cssBytes / 1024).toFixed(1)} KB gz`,
    );
  }
  console.log(
    `[budgets] ${pages} catalogue pages checked (JS <= ${BUDGETS.jsKb} KB, CSS <= ${BUDGETS.cssKb} KB gzipped, no SVG drawn as an image)`,
  );
  if (failures.length) {
    console.error(failures.slice(0, 20).join('\n'));
    process.exit(1);
  }
}
