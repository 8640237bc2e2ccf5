/**
 * Several copies, one build: two `npm start --no-build` copies on the build
 * `npm test` made (DIST_DIR), one Redis, one fresh sandbox on the port that build talks to, and
 * one releases folder in a temporary folder outside the project. The rebuild command is a copy
 * of that build with the release's name in `/release.txt` (`REBUILD_COMMAND`: the switch is
 * what is tested). Under autocannon on both copies, ONE signed Contentful publish is sent to
 * the copy that does not hold the build lease: exactly one build runs across both copies, both
 * serve the new release within 5 s of its pointer being written, and not one request fails on
 * either. Run by `npm test` after the build (vitest project `scale`); by hand:
 * `DIST_DIR=dist-x SANDBOX_PORT=N npx vitest run --project scale tests/scale/copies.test.ts`.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  readStatus,
  sendPublish,
  settledAfter,
  statusWhen,
  type ShopChild,
} from '../integration/helpers/rebuild.ts';
import { redisAvailable } from '../integration/helpers/redis.ts';
import { useTwoCopies } from './helpers/copies.ts';
import { autocannon, failuresOf, loadRequests, NO_FAILURES } from './helpers/load.ts';
import { DIST_DIR } from './helpers/suite.ts';

const SECRET = 'f'.repeat(64);

describe.runIf(redisAvailable())('two copies, one build, under load', () => {
  const copies = useTwoCopies({
    name: 'copies-scale',
    env: (base) => ({
      ...process.env,
      ...base,
      SESSION_SECRET: 'copies-scale-test-session-secret-0123456789',
      CONTENTFUL_WEBHOOK_SECRET: SECRET,
      REBUILD_DEBOUNCE_MS: '500',
      REBUILD_COMMAND: `cp -r "${path.resolve(DIST_DIR)}/." "$RELEASE_DIR" && basename "$RELEASE_DIR" > "$RELEASE_DIR/client/release.txt"`,
    }),
  });

  /** What `/release.txt` of a copy says (the marker the rebuild command writes). */
  const marker = async (copy: ShopChild) => {
    const response = await fetch(`${copy.base}/release.txt`);
    return response.status === 200 ? (await response.text()).trim() : `(${response.status})`;
  };

  test('one webhook to the follower: one build, both copies on it within 5 s, 0 failed requests', async () => {
    const { holder: builder, follower, releases } = copies();
    const before = await readStatus(follower.base);
    expect(before.copies).toMatchObject({
      role: 'follower',
      builder: expect.any(String) as string,
    });
    expect((await readStatus(builder.base)).copies?.name).toBe(before.copies?.builder);
    expect(await marker(follower)).toBe('(404)');

    const requests = loadRequests(DIST_DIR);
    const load = (copy: ShopChild) =>
      autocannon({ url: copy.base, connections: 8, duration: 14, requests });
    const loads = Promise.all([load(builder), load(follower)]);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await sendPublish(follower.base, 'entree-deux-copies', SECRET)).toBe(202);
    const built = await settledAfter(builder.base, 1, 60_000);
    expect(built.lastBuild, JSON.stringify(built.lastBuild)).toMatchObject({ result: 'succeeded' });
    const { id } = built.current;
    const switched = await statusWhen(follower.base, (status) => status.current.id === id, 20_000);
    const [resultA, resultB] = await loads;

    // Exactly one build across both copies: one release in the shared folder, one build line.
    expect([built.builds, switched.builds]).toEqual([1, 0]);
    const dirs = (await readdir(releases)).filter((name) => /^r\d{8}-/.test(name));
    expect(dirs).toEqual([id]);
    const buildLines = [builder, follower].flatMap((copy) =>
      copy
        .output()
        .split('\n')
        .filter((line) => line.includes('[rebuild] building ')),
    );
    expect(buildLines).toHaveLength(1);

    // Both serve it: the status, the marker, the pointer.
    const pointer = JSON.parse(await readFile(path.join(releases, 'current.json'), 'utf8')) as {
      id: string;
    };
    expect(pointer.id).toBe(id);
    expect(await marker(builder)).toBe(id);
    expect(await marker(follower)).toBe(id);
    // It started the release's workers while the builder swapped its own (`next.json`).
    expect(follower.output()).toContain(`[rebuild] ${id} is about to go live`);
    expect(follower.output()).toContain(`[rebuild] ${id} is live: switched in`);

    // Within 5 s of the pointer's write (the swaps happened under the load: it ran 14 s).
    const written = (await stat(path.join(releases, 'current.json'))).mtimeMs;
    const complete = (await stat(path.join(releases, 'next.json'))).mtimeMs;
    const servedAt = Date.parse(switched.current.servingSince);
    const switchMs = servedAt - written;
    console.log(
      `[copies] ${id}: the follower served it ${String(Math.round(switchMs))} ms after the pointer was written (${String(Math.round(servedAt - complete))} ms after the build was complete); ${String(resultA.requests.total)} + ${String(resultB.requests.total)} requests`,
    );
    expect(switchMs).toBeLessThan(5_000);

    for (const result of [resultA, resultB]) {
      expect(result.requests.total).toBeGreaterThan(500);
      expect(failuresOf(result)).toEqual(NO_FAILURES);
    }
  }, 120_000);
});
