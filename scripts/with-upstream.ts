/**
 * Runs a command with the upstream environment (the sandbox when no BigCommerce credentials
 * are set): `astro check` and type-aware lint need it, because `astro sync` runs the content
 * loaders, which read the catalogue. `--sync` runs `astro sync` first (types of
 * `astro:content` for ESLint on a fresh clone).
 * Usage: node scripts/with-upstream.ts [--sync] <command> [args...]
 */
import { run } from './lib/run.ts';
import { ensureUpstream, loadDotEnv } from './lib/upstream.ts';

const args = process.argv.slice(2);
const sync = args[0] === '--sync';
const [command, ...rest] = sync ? args.slice(1) : args;
if (!command) {
  console.error('usage: node scripts/with-upstream.ts [--sync] <command> [args...]');
  process.exit(2);
}

const bin = (name: string): string =>
  new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

loadDotEnv();
const upstream = await ensureUpstream();
let code = 0;
try {
  // Node runs the package's bin script itself: the machine's `node` on PATH may be older.
  const exec = (name: string, argv: string[]) =>
    run(process.execPath, [bin(name), ...argv], { env: upstream.env });
  if (sync) ({ code } = await exec('astro', ['sync']));
  if (code === 0) ({ code } = await exec(command, rest));
} finally {
  await upstream.close();
}
process.exit(code);
