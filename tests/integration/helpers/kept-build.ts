/**
 * A stand-in for `scripts/build.ts --publisher` at its IPC boundary, for the supervisor's tests
 * (`tests/integration/rebuild-publisher.test.ts`): "builds" by copying `FIXTURE_DIST` into the
 * folder after `--out-dir` (its home page names the release), says `publisher-ready`, then
 * answers publish requests as the file `KEPT_BEHAVIOUR` says: `publish` (the home page names the
 * edits, `published`), `full` (`publish-full`), `exit` (dies without answering). `stop` ends it.
 * With the file `FAIL_FLAG`, the build fails.
 * Each line it prints goes to the release's log, which the test reads.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const outDir = process.argv[process.argv.indexOf('--out-dir') + 1] ?? '';
const fixture = process.env.FIXTURE_DIST ?? '';
const behaviourFile = process.env.KEPT_BEHAVIOUR ?? '';
const name = path.basename(outDir);
const home = path.join(outDir, 'client', 'index.html');

if (existsSync(process.env.FAIL_FLAG ?? '')) {
  console.error('[kept] build failed on purpose');
  process.exit(1);
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
  if (what === 'full') {
    process.send?.({ type: 'publish-full', id: message.id, reason: 'the tree changed' });
    return;
  }
  writeFileSync(home, `<h1>release ${name} published ${JSON.stringify(message.edits)}</h1>`);
  process.send?.({ type: 'published', id: message.id, written: ['/'], removed: [], ms: 1 });
});
process.send?.({ type: 'publisher-ready' });
