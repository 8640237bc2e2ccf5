/**
 * A real build (`scripts/build.ts`, run as the rebuild supervisor runs it: builder.ts
 * `runBuild`) against a sandbox whose products list answers 503 (its fault injection,
 * `SANDBOX_FAULTS`): it fails, and the cause the supervisor gets is the upstream's own ("Service
 * Unavailable … [GET v3/catalog/products]"), marked transient (so it is retried), not
 * `exit code 1: at async …build.ts:165:20`. A build past its time limit is transient too; a
 * build that prints no cause line is described by its last lines that are not stack lines.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../../src/server/free-port.ts';
import { runBuild } from '../../src/server/rebuild/builder.ts';

let root = '';

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'build-failure-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('a build failing on an upstream 503', () => {
  test('the supervisor gets the upstream cause, transient, and no stack line', async () => {
    const logFile = path.join(root, 'build.log');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      UPSTREAM: 'sandbox',
      SANDBOX_PORT: String(await freePort()),
      SANDBOX_DIR: path.join(root, 'sandbox'),
      SANDBOX_FAULTS: JSON.stringify({
        status: 503,
        match: '/stores/sandbox/v3/catalog/products',
      }),
    };
    const result = await runBuild({
      outDir: path.join(root, 'release'),
      command: [
        process.execPath,
        path.resolve('scripts/build.ts'),
        '--out-dir',
        path.join(root, 'release'),
      ],
      env,
      logFile,
      timeoutMs: 240_000,
      niceness: 0,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.transient).toBe(true);
    expect(result.error).toMatch(/^Service Unavailable .*\[GET v3\/catalog\/products\]/);
    expect(result.error).not.toMatch(/\bat\s|exit code/);
    // The log keeps the whole story, the cause on its own line.
    expect(await readFile(logFile, 'utf8')).toMatch(/^BUILD_FAILURE \{.*"transient":true\}$/m);
  }, 300_000);

  test('a build past its time limit is stopped, and tried again later (transient)', async () => {
    const result = await runBuild({
      outDir: path.join(root, 'slow'),
      command: { shell: 'sleep 30' },
      env: { PATH: process.env.PATH },
      logFile: path.join(root, 'slow.log'),
      timeoutMs: 200,
      niceness: 0,
    });
    expect(result).toMatchObject({ ok: false, transient: true, error: 'timed out after 0 s' });
  });

  test('without a BUILD_FAILURE line: the last lines that say something, never a stack line', async () => {
    const script = [
      "echo 'Error: ENAMETOOLONG: name too long, open /srv/p/7/x.html'",
      "echo '    at async Promise.all (index 3)'",
      "echo '    at async main (/srv/scripts/build.ts:165:20)'",
      "echo '}'",
      'exit 1',
    ].join('; ');
    const result = await runBuild({
      outDir: path.join(root, 'bad'),
      command: { shell: script },
      env: { PATH: process.env.PATH },
      logFile: path.join(root, 'bad.log'),
      timeoutMs: 10_000,
      niceness: 0,
    });
    expect(result).toMatchObject({
      ok: false,
      transient: false,
      error: 'exit code 1: Error: ENAMETOOLONG: name too long, open /srv/p/7/x.html',
    });
  });
});
