/**
 * The production build served for a check (`check-links.ts`, `check-html.ts`): its upstream
 * (the sandbox unless credentials are set, `lib/upstream.ts`) and `startServer` of
 * `src/server/serve.ts` on `127.0.0.1`, the way `npm start` serves it, in a child process of their
 * own: what the check does between requests (a crawler's bookkeeping, a validator) neither
 * delays the shop's replies nor its upstream calls, whose time budget is wall time, and the
 * machine's second core serves. Also the URL paths of the build's pre-rendered pages.
 */
import { fork } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export interface BuiltShop {
  /** `http://127.0.0.1:{port}`. */
  baseUrl: string;
  /** The upstream's environment (`Upstream.env`: the BigCommerce variables...). */
  upstreamEnv: NodeJS.ProcessEnv;
  /** The build's `client/` folder. */
  clientDir: string;
  close(): Promise<void>;
}

interface Ready {
  baseUrl: string;
  upstreamEnv: NodeJS.ProcessEnv;
}

/**
 * Serves `distDir` on `port` (0: any free port) from a child process; with `baseUrl` (a shop
 * already running there), only its upstream's environment, in this process.
 */
export async function serveBuiltShop(options: {
  distDir: string;
  port: number;
  baseUrl?: string | undefined;
}): Promise<BuiltShop> {
  const clientDir = path.resolve(options.distDir, 'client');
  if (!existsSync(clientDir)) throw new Error(`${clientDir} does not exist: build first.`);
  if (options.baseUrl !== undefined) {
    const { ensureUpstream } = await import('./upstream.ts');
    const upstream = await ensureUpstream();
    return {
      baseUrl: new URL(options.baseUrl).origin,
      upstreamEnv: upstream.env,
      clientDir,
      close: () => upstream.close(),
    };
  }
  const child = fork(new URL(import.meta.url), ['--serve', options.distDir, String(options.port)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (message) => {
      resolve(message as Ready);
    });
    child.once('exit', (code) => {
      reject(new Error(`the shop's server stopped before listening (exit ${String(code)})`));
    });
  });
  return {
    ...ready,
    clientDir,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}

/** The child: upstream and server until the parent disconnects. */
async function serveInThisProcess(distDir: string, port: number): Promise<void> {
  const { ensureUpstream } = await import('./upstream.ts');
  const upstream = await ensureUpstream();
  Object.assign(process.env, upstream.env);
  try {
    const { startServer } = await import('../../src/server/http-server.ts');
    const server = await startServer({ distDir, port, host: '127.0.0.1' });
    const baseUrl = new URL(server.url.replace('//localhost:', '//127.0.0.1:')).origin;
    process.once('disconnect', () => {
      void server
        .close()
        .then(() => upstream.close())
        .then(() => process.exit(0));
    });
    process.send?.({ baseUrl, upstreamEnv: upstream.env } satisfies Ready);
  } catch (error) {
    await upstream.close();
    throw error;
  }
}

if (import.meta.main && process.argv[2] === '--serve') {
  await serveInThisProcess(process.argv[3] ?? 'dist', Number(process.argv[4] ?? 0));
}

/** URL paths of the pre-rendered pages of a client folder (`c/matelas.html` → `/c/matelas`). */
export function pagePaths(clientDir: string): string[] {
  const paths: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.html')) {
        const relative = path.relative(clientDir, full).split(path.sep).join('/');
        const withoutExt = relative.replace(/\.html$/, '');
        paths.push(withoutExt === 'index' ? '/' : `/${withoutExt.replace(/\/index$/, '')}`);
      }
    }
  };
  walk(clientDir);
  return paths.sort();
}
