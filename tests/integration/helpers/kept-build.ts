/**
 * A stand-in for `scripts/build.ts --publisher` at its IPC boundary, for the supervisor's tests
 * (`tests/integration/rebuild-publisher.test.ts`): "builds" by copying `FIXTURE_DIST` into the
 * folder after `--out-dir` (its home page names the release), says `publisher-ready`, then
 * answers publish requests as the file `KEPT_BEHAVIOUR` says: `publish` (the home page names the
 * edits, `published`), `full` (`publish-full`), `exit` (dies without answering), `hang` (never
 * answers), `wait` (publishes once the file `{KEPT_BEHAVIOUR}.go` exists), `transient N` (the
 * first N publishes fail as an upstream 503 would while reading the
 * edits: `publish-failed`, transient, data unchanged; then it publishes). `stop` ends it.
 * With the file `FAIL_FLAG`, the build fails: empty, with a plain error; `transient N`, the first
 * N builds print a transient `BUILD_FAILURE` line (an upstream 503), then they succeed;
 * `permanent`, a `BUILD_FAILURE` line that is not transient. Counts are kept in `{file}.count`.
 * Each line it prints goes to the release's log, which the test reads.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const outDir = process.argv[process.argv.indexOf('--out-dir') + 1] ?? '';
const fixture = process.env.FIXTURE_DIST ?? '';
const behaviourFile = process.env.KEPT_BEHAVIOUR ?? '';
const name = path.basename(outDir);
const home = path.join(outDir, 'client', 'index.html');

/** The number in `{file}.count`, raised by one; the value before. */
function bump(file: string): number {
  let count: number;
  try {
    count = Number(readFileSync(`${file}.count`, 'utf8')) || 0;
  } catch {
    count = 0;
  }
  writeFileSync(`${file}.count`, String(count + 1));
  return count;
}

const failFlag = process.env.FAIL_FLAG ?? '';
if (existsSync(failFlag)) {
  const how = readFileSync(failFlag, 'utf8').trim();
  const transient = /^transient (\d+)$/.exec(how);
  if (how === 'permanent') {
    console.error('Error: boom\n    at async main (/srv/scripts/build.ts:165:20)');
    console.log(
      `BUILD_FAILURE ${JSON.stringify({ message: '[NoMatchingStaticPathFound] no matching static path for /c/../x', transient: false })}`,
    );
    process.exit(1);
  }
  if (transient === null) {
    console.error('[kept] build failed on purpose');
    process.exit(1);
  }
  if (bump(failFlag) < Number(transient[1])) {
    console.error('Error: astro build failed\n    at async main (/srv/scripts/build.ts:165:20)');
    console.log(
      `BUILD_FAILURE ${JSON.stringify({ message: 'BigCommerce GET v3/catalog/products answered 503', transient: true })}`,
    );
    process.exit(1);
  }
}
cpSync(fixture, outDir, { recursive: true });
writeFileSync(home, `<h1>release ${name}</h1>`);
console.log(`[kept] built ${name}`);

const behaviour = () => {
  try {
    return readFileSync(behaviourFile, 'utf8').trim();
  } catch {
    return 'publish';
  }
};

process.on('message', (message: { type?: string; id?: number; edits?: unknown }) => {
  if (message.type === 'stop') {
    console.log(`[kept] ${name} stopped`);
    process.exit(0);
  }
  if (message.type !== 'publish') return;
  const what = behaviour();
  console.log(`[kept] ${name} asked to publish ${JSON.stringify(message.edits)}: ${what}`);
  if (what === 'exit') process.exit(3);
  if (what === 'hang') return;
  if (what === 'wait') {
    // Publishes once the file `{KEPT_BEHAVIOUR}.go` exists (a publish the test holds in flight).
    const waitForGo = () => {
      if (!existsSync(`${behaviourFile}.go`)) {
        setTimeout(waitForGo, 20);
        return;
      }
      writeFileSync(home, `<h1>release ${name} published ${JSON.stringify(message.edits)}</h1>`);
      process.send?.({ type: 'published', id: message.id, written: ['/'], removed: [], ms: 1 });
    };
    waitForGo();
    return;
  }
  const transient = /^transient (\d+)$/.exec(what);
  if (transient !== null && bump(behaviourFile) < Number(transient[1])) {
    process.send?.({
      type: 'publish-failed',
      id: message.id,
      error: 'BigCommerce GET v3/catalog/products answered 503',
      transient: true,
      dataChanged: false,
    });
    return;
  }
  if (what === 'full') {
    process.send?.({ type: 'publish-full', id: message.id, reason: 'the tree changed' });
    return;
  }
  writeFileSync(home, `<h1>release ${name} published ${JSON.stringify(message.edits)}</h1>`);
  process.send?.({ type: 'published', id: message.id, written: ['/'], removed: [], ms: 1 });
});
process.send?.({ type: 'publisher-ready' });
