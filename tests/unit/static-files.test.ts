/**
 * The static side of the server while a publish rewrites the live release
 * (src/server/static-files.ts): a page replaced in place is served whole, old or new, and the
 * new one once its lookup is checked again; a page removed after it was looked up is not an
 * error: `send` writes nothing and says so, and the lookup is forgotten; after a publish
 * (`forget`), every page is answered as it now is.
 */
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createStaticFiles, type StaticFiles } from '../../src/server/static-files.ts';

let root = '';
let clock = 0;
let files: StaticFiles;
let server: Server;
let base = '';
/** What the last request's `send` returned. */
let lastSent: boolean | null = null;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'static-files-'));
  files = createStaticFiles({ root, now: () => clock, recheckMs: 1000 });
  server = createServer((req, res) => {
    void (async () => {
      const found = await files.resolve(new URL(req.url ?? '/', 'http://x').pathname);
      if (found === null) {
        res.writeHead(404).end('absent');
        return;
      }
      lastSent = await files.send(req, res, found, false);
      if (!lastSent) res.writeHead(299).end('gone');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(root, { recursive: true, force: true });
});

const get = async (page: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${base}${page}`, { headers });
  return { status: response.status, body: await response.text() };
};

/** Writes a page as the publisher does: a temporary file renamed over the old one. */
async function publishPage(name: string, html: string) {
  const temporary = path.join(root, `.${name}.tmp`);
  await writeFile(temporary, html);
  await rename(temporary, path.join(root, name));
}

describe('a page rewritten or removed under the server', () => {
  test('a page replaced in place: old or new whole, the new one once looked up again', async () => {
    await publishPage('produit.html', `<h1>${'ancien '.repeat(200)}</h1>`);
    expect((await get('/produit')).body).toContain('ancien');
    await publishPage('produit.html', `<h1>${'nouveau '.repeat(300)}</h1>`);
    const within = await get('/produit', { 'accept-encoding': 'identity' });
    expect(within.status).toBe(200);
    expect(within.body).toMatch(/^<h1>(ancien |nouveau )+<\/h1>$/);
    clock += 1001;
    expect((await get('/produit', { 'accept-encoding': 'gzip' })).body).toContain('nouveau');
  });

  test('a page removed after its lookup: nothing written, the lookup forgotten', async () => {
    await publishPage('ancien-nom.html', '<h1>Matelas</h1>'.repeat(100));
    clock += 1001;
    // Looked up (a request), not yet read, when the publish removes it.
    expect(await files.resolve('/ancien-nom')).not.toBeNull();
    await rm(path.join(root, 'ancien-nom.html'));
    // Within the second the lookup is trusted: the body read finds no file.
    const gone = await get('/ancien-nom');
    expect(lastSent).toBe(false);
    expect(gone).toEqual({ status: 299, body: 'gone' });
    expect(await files.resolve('/ancien-nom')).toBeNull();
    expect((await get('/ancien-nom')).status).toBe(404);
  });

  test('after a publish, a page removed or rewritten is answered as it now is, at once', async () => {
    await publishPage('renomme.html', '<h1>Matelas Élysée</h1>'.repeat(100));
    await publishPage('fiche.html', '<p>avant</p>'.repeat(100));
    clock += 1001;
    // Read whole, so the bodies are held in memory.
    expect((await get('/renomme')).status).toBe(200);
    expect((await get('/fiche')).body).toContain('avant');
    await rm(path.join(root, 'renomme.html'));
    await publishPage('fiche.html', '<p>après</p>'.repeat(100));
    files.forget();
    // Within the second a lookup would have been trusted.
    expect((await get('/renomme')).status).toBe(404);
    expect((await get('/fiche')).body).toContain('après');
  });
});
