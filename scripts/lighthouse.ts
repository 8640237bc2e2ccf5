/**
 * `npm run test:lighthouse`: Lighthouse CI (mobile) on the production build served the way
 * `npm start` serves it: home, a category and a product page. Asserts performance,
 * accessibility, best practices and SEO >= 0.95 each, as errors (lighthouserc.json).
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { chromiumPath } from './lib/browser.ts';
import { run } from './lib/run.ts';
import { ensureUpstream } from './lib/upstream.ts';
import { startServer } from './serve.ts';

const distDir = process.env.DIST_DIR ?? 'dist';
const clientDir = path.join(distDir, 'client');
const chrome = chromiumPath();
if (!chrome) {
  console.error('[lighthouse] Chromium is missing (apt-get install -y chromium or CHROME_PATH).');
  process.exit(1);
}
if (!existsSync(clientDir)) {
  console.error(`[lighthouse] ${clientDir} does not exist: build first.`);
  process.exit(1);
}

/** First page (alphabetically) of a kind, as a URL path. */
function firstPage(dir: string): string {
  const walk = (d: string): string | null => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(d, entry.name);
      if (entry.isFile() && entry.name.endsWith('.html')) return full;
      if (entry.isDirectory()) {
        const found = walk(full);
        if (found) return found;
      }
    }
    return null;
  };
  const file = walk(path.join(clientDir, dir));
  if (!file) throw new Error(`no page under ${dir}`);
  return `/${path.relative(clientDir, file).replace(/\.html$/, '')}`;
}

const upstream = await ensureUpstream();
Object.assign(process.env, upstream.env);
const server = await startServer({ distDir, port: Number(process.env.PORT ?? 4391) });
const base = server.url.replace('localhost', '127.0.0.1');
const urls = ['/', firstPage('c'), firstPage('p')].map((p) => base + p);
console.log(`[lighthouse] ${urls.join(' ')}`);

const lhci = new URL('../node_modules/@lhci/cli/src/cli.js', import.meta.url).pathname;
const env = { ...process.env, CHROME_PATH: chrome };
let code: number;
try {
  ({ code } = await run(process.execPath, [lhci, 'collect', ...urls.map((u) => `--url=${u}`)], {
    env,
  }));
  if (code === 0) ({ code } = await run(process.execPath, [lhci, 'assert'], { env }));
  if (code === 0) ({ code } = await run(process.execPath, [lhci, 'upload'], { env }));
} finally {
  await server.close();
  await upstream.close();
}
process.exit(code);
