/**
 * The kept build writes the sitemaps again when a publish adds or removes a page
 * (`prerenderAppCapture().sitemaps()`, src/server/publish/page-publisher.ts), through the build's
 * own sitemap integration (here a stand-in for `@astrojs/sitemap`'s `astro:build:done` hook
 * that lists the pages it is given). The build precompressed the sitemaps it wrote, and the
 * server prefers those copies: they go, so that a crawler asking for gzip gets the new list.
 * The listings' sitemap, a page the publisher renders itself, keeps its copies.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { prerenderAppCapture } from '../../src/server/publish/page-publisher.ts';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'publish-sitemaps-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Calls an integration hook with the few fields the capture reads. */
type Hook = (params: unknown) => unknown;

test('sitemaps written again: the build’s compressed copies of them are gone', async () => {
  const capture = prerenderAppCapture();
  const hooks = capture.integration.hooks as Record<string, Hook>;
  const sitemapDone = ({ dir: out, pages }: { dir: URL; pages: { pathname: string }[] }) => {
    writeFileSync(new URL('sitemap-0.xml', out), pages.map((p) => `/${p.pathname}`).join('\n'));
    writeFileSync(new URL('sitemap-index.xml', out), 'sitemap-0.xml');
  };
  await hooks['astro:config:done']?.({
    config: {
      site: 'https://www.literie.example',
      server: { port: 4321 },
      image: {},
      build: { assets: '_astro' },
      integrations: [{ name: '@astrojs/sitemap', hooks: { 'astro:build:done': sitemapDone } }],
    },
  });
  await hooks['astro:build:done']?.({
    dir: pathToFileURL(`${dir}/`),
    pages: [{ pathname: 'cgv/' }],
    logger: {},
  });
  const copies = ['sitemap-0.xml', 'sitemap-index.xml', 'sitemap-listings.xml'].flatMap((name) =>
    ['.br', '.gz'].map((suffix) => path.join(dir, `${name}${suffix}`)),
  );
  for (const file of copies) writeFileSync(file, 'old');

  const write = capture.sitemaps();
  expect(write).not.toBeNull();
  await write?.(['/cgv', '/nos-engagements']);

  expect(readFileSync(path.join(dir, 'sitemap-0.xml'), 'utf8')).toContain('/nos-engagements');
  expect(copies.filter((file) => existsSync(file)).map((file) => path.basename(file))).toEqual([
    'sitemap-listings.xml.br',
    'sitemap-listings.xml.gz',
  ]);
});
