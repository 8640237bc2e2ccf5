/**
 * `npm run dev`: `astro dev` with hot reload, against the sandbox when no BigCommerce
 * credentials are configured (started here, or reused if already running).
 */
import { run } from './lib/run.ts';
import { ensureUpstream, loadDotEnv } from './lib/upstream.ts';

loadDotEnv();
const upstream = await ensureUpstream();
const astroBin = new URL('../node_modules/astro/bin/astro.mjs', import.meta.url).pathname;
const { code } = await run(process.execPath, [astroBin, 'dev', ...process.argv.slice(2)], {
  env: upstream.env,
});
await upstream.close();
process.exit(code);
