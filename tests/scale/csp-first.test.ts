/**
 * The policy first, on the build: every pre-rendered page of every kind opens
 * with `<meta charset>` directly followed by its Content-Security-Policy `<meta>`, before any
 * script, JSON-LD, style or link, and that policy allows every inline script and style of the
 * page by its hash. Served by the storefront server, a pre-rendered page (as it is, and as a
 * reseller gets it) also carries its policy as a header beside the framing rule, and an
 * on-demand page carries its policy as a header with no policy `<meta>` later in the page.
 * Run by `npm test` after the build (vitest project `scale`); by hand:
 * `DIST_DIR=dist-x SANDBOX_PORT=N npx vitest run --project scale tests/scale/csp-first.test.ts`
 * on a build made with those.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureUpstream, type Upstream } from '../../scripts/lib/upstream.ts';
import { startServer } from '../../src/server/http-server.ts';
import { SHOP_MODE_COOKIE, SHOP_MODE_RESELLER } from '../../src/lib/commerce/shop-mode.ts';
import { pagePolicy } from '../../src/server/page-policy.ts';
import { DIST_DIR, requireBuild, SANDBOX_PORT } from './helpers/suite.ts';

const CHARSET = '<meta charset="utf-8">';
const POLICY_META = /<meta http-equiv="content-security-policy" content="([^"]*)">/gi;
const OPENING = /^<!DOCTYPE html><html(?:\s[^<>]*)?><head>$/i;

interface Page {
  /** The URL path the file answers. */
  pathname: string;
  /** Its kind: the first segment of its path (`p`, `c`, `marque`…) or the file's name. */
  kind: string;
  html: string;
}

let pages: Page[] = [];
let work = '';
let upstream: Upstream | undefined;
let server: Awaited<ReturnType<typeof startServer>> | undefined;

beforeAll(async () => {
  requireBuild();
  const client = path.join(DIST_DIR, 'client');
  pages = readdirSync(client, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html'))
    .map((file) => {
      const parts = file.slice(0, -'.html'.length).split(path.sep);
      const pathname = parts.join('/') === 'index' ? '/' : `/${parts.join('/')}`;
      return {
        pathname,
        kind: parts[0] ?? '',
        html: readFileSync(path.join(client, file), 'utf8'),
      };
    })
    .sort((a, b) => a.pathname.localeCompare(b.pathname));
  work = mkdtempSync(path.join(tmpdir(), 'shop-csp-first-'));
  upstream = await ensureUpstream({ port: SANDBOX_PORT, dataDir: path.join(work, 'sandbox') });
  Object.assign(process.env, upstream.env);
  server = await startServer({ distDir: DIST_DIR, port: 0, renderCache: false });
});

afterAll(async () => {
  await server?.close();
  await upstream?.close();
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** A directive's sources in `policy` (`script-src`…), or null when it has none. */
function directive(policy: string, name: string): string[] | null {
  for (const part of policy.split(';')) {
    const [first, ...sources] = part.trim().split(/\s+/);
    if (first === name) return sources;
  }
  return null;
}

interface Element {
  /** Tag name, or `#comment`. */
  name: string;
  attributes: Record<string, string>;
  /** Where its tag starts in the document. */
  start: number;
  /** A script's or style's text, as written. */
  text: string;
}

/** The elements and comments of `html` in document order, as an HTML tokenizer reads them. */
function elements(html: string): Element[] {
  const found: Element[] = [];
  let open: Element | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const element = { name, attributes, start: parser.startIndex, text: '' };
        found.push(element);
        if (name === 'script' || name === 'style') open = element;
      },
      ontext(text) {
        if (open !== null) open.text += text;
      },
      onclosetag(name) {
        if (open?.name === name) open = null;
      },
      oncomment() {
        found.push({ name: '#comment', attributes: {}, start: parser.startIndex, text: '' });
      },
    },
    { decodeEntities: false },
  );
  parser.write(html);
  parser.end();
  return found;
}

/** The inline scripts a browser runs (not data blocks, not files) and the inline styles. */
function inlineCode(html: string): { scripts: string[]; styles: string[] } {
  const all = elements(html);
  const scripts = all
    .filter(({ name, attributes }) => {
      if (name !== 'script' || attributes.src !== undefined) return false;
      const type = attributes.type?.toLowerCase();
      return type === undefined || type === '' || type === 'module' || type === 'text/javascript';
    })
    .map(({ text }) => text);
  const styles = all.filter(({ name }) => name === 'style').map(({ text }) => text);
  return { scripts, styles };
}

describe('the build: every pre-rendered page opens with its policy', () => {
  test('pages of every kind were built', () => {
    const kinds = new Set(pages.map((page) => page.kind));
    for (const kind of ['index', 'c', 'p', 'marque', 'les-yeux-fermes', '500', 'hors-ligne']) {
      expect(kinds, kind).toContain(kind);
    }
    expect(kinds.size).toBeGreaterThanOrEqual(14);
  });

  test('<meta charset>, then the policy, before any script, JSON-LD, style or link', () => {
    for (const { pathname, html } of pages) {
      const charsetAt = html.indexOf(CHARSET);
      expect(charsetAt, pathname).toBeGreaterThan(0);
      expect(html.slice(0, charsetAt), pathname).toMatch(OPENING);
      const metas = [...html.matchAll(POLICY_META)];
      expect(metas.length, pathname).toBe(1);
      const [meta] = metas;
      expect(meta?.index, pathname).toBe(charsetAt + CHARSET.length);
      // As a tokenizer reads the page: charset, policy, then everything else.
      const all = elements(html);
      const policyAt = all.findIndex(
        ({ name, attributes }) =>
          name === 'meta' && attributes['http-equiv']?.toLowerCase() === 'content-security-policy',
      );
      expect(
        all.slice(0, policyAt + 1).map(({ name, attributes }) => attributes.charset ?? name),
        pathname,
      ).toEqual(['html', 'head', 'utf-8', 'meta']);
      const first = all.find(({ name }) => ['script', 'style', 'link', '#comment'].includes(name));
      expect(first?.start ?? Infinity, pathname).toBeGreaterThan(all[policyAt]?.start ?? 0);
      // What the server reads for the header is that meta's policy.
      expect(pagePolicy(html), pathname).toBe(meta?.[1]);
    }
  });

  test('the policy allows every inline script and style of its page by hash', () => {
    let scripts = 0;
    for (const { pathname, html } of pages) {
      const policy = pagePolicy(html) ?? '';
      const scriptSources = directive(policy, 'script-src') ?? [];
      const styleSources = directive(policy, 'style-src') ?? [];
      expect(scriptSources, pathname).not.toContain("'unsafe-inline'");
      const inline = inlineCode(html);
      for (const code of inline.scripts) {
        scripts += 1;
        expect(scriptSources, `${pathname}: ${code.slice(0, 60)}`).toContain(sha256(code));
      }
      for (const code of inline.styles) {
        expect(styleSources, `${pathname}: ${code.slice(0, 60)}`).toContain(sha256(code));
      }
    }
    // The reseller-mode script at least, on every page.
    expect(scripts).toBeGreaterThanOrEqual(pages.length);
  });
});

interface Reply {
  status: number;
  policies: string;
  text: string;
}

async function get(pathname: string, cookie?: string): Promise<Reply> {
  const response = await fetch(`${server?.url ?? ''}${pathname}`, {
    redirect: 'manual',
    headers: {
      accept: 'text/html',
      'accept-encoding': 'identity',
      ...(cookie === undefined ? {} : { cookie }),
    },
  });
  return {
    status: response.status,
    policies: response.headers.get('content-security-policy') ?? '',
    text: await response.text(),
  };
}

describe('served: the policy as a header', () => {
  /** One page of each kind (its first by path), with the build's policy of it. */
  const oneOfEachKind = () => {
    const seen = new Map<string, Page>();
    for (const page of pages) if (!seen.has(page.kind)) seen.set(page.kind, page);
    return [...seen.values()];
  };

  test('a pre-rendered page of each kind: its policy and the framing rule', async () => {
    for (const page of oneOfEachKind()) {
      const policy = pagePolicy(page.html);
      expect(policy, page.pathname).not.toBeNull();
      const reply = await get(page.pathname);
      expect([200, 500], page.pathname).toContain(reply.status);
      expect(reply.text, page.pathname).toBe(page.html);
      expect(reply.policies, page.pathname).toContain(policy ?? '');
      expect(reply.policies, page.pathname).toContain("frame-ancestors 'self'");
    }
  });

  test('a pre-rendered page as a reseller gets it: stripped, its policy still a header', async () => {
    const cookie = `${SHOP_MODE_COOKIE}=${SHOP_MODE_RESELLER}`;
    for (const page of oneOfEachKind()) {
      const reply = await get(page.pathname, cookie);
      expect([200, 500], page.pathname).toContain(reply.status);
      expect(reply.text, page.pathname).toContain('data-reseller');
      expect(reply.policies, page.pathname).toContain(pagePolicy(reply.text) ?? 'no policy');
      expect(reply.policies, page.pathname).toContain("frame-ancestors 'self'");
    }
  });

  /** Logs in a seeded account of the sandbox (sandbox/src/seed/customers.ts): its cookies. */
  async function logIn(email: string, password: string): Promise<string> {
    const base = server?.url ?? '';
    const response = await fetch(`${base}/api/bigcommerce/loginCustomer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify([{ email, password }]),
    });
    expect(response.status).toBe(200);
    return response.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0] ?? '')
      .join('; ');
  }

  test('logged-in pages (an account page, the reseller area and its cart): the header', async () => {
    const customer = await logIn('marie.martin@example.fr', 'Sommeil2024');
    const reseller = await logIn('boutique@literie-atlantique.fr', 'Atlantique2024');
    for (const [url, cookie] of [
      ['/mon-compte/mes-informations', customer],
      ['/espace-revendeur', reseller],
      ['/espace-revendeur/panier', reseller],
    ] as const) {
      const reply = await get(url, cookie);
      expect(reply.status, url).toBe(200);
      expect(reply.policies, url).toMatch(/script-src 'self'[^;]* 'sha256-/);
      expect(reply.policies, url).toContain("frame-ancestors 'self'");
      const charsetAt = reply.text.indexOf(CHARSET);
      expect(reply.text.slice(0, charsetAt), url).toMatch(OPENING);
      for (const meta of reply.text.matchAll(POLICY_META)) {
        expect(meta.index, url).toBe(charsetAt + CHARSET.length);
      }
    }
  });

  test.each([
    '/connexion',
    '/inscription',
    '/mot-de-passe',
    '/panier',
    '/paiement',
    '/espace-revendeur/connexion',
    '/resultats-de-recherche/matelas',
    '/c/matelas?sort=2',
    '/page-qui-n-existe-pas',
  ])(
    'an on-demand page (%s): its policy as a header, no policy meta after a script',
    async (url) => {
      const reply = await get(url);
      if (reply.status >= 300 && reply.status < 400) return; // a guard sent it elsewhere
      expect(reply.policies, url).toMatch(/script-src 'self'[^;]* 'sha256-/);
      expect(reply.policies, url).toContain("frame-ancestors 'self'");
      const metas = [...reply.text.matchAll(POLICY_META)];
      const charsetAt = reply.text.indexOf(CHARSET);
      expect(charsetAt, url).toBeGreaterThan(0);
      expect(reply.text.slice(0, charsetAt), url).toMatch(OPENING);
      for (const meta of metas) expect(meta.index, url).toBe(charsetAt + CHARSET.length);
    },
  );
});
