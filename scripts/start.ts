/**
 * `npm start`: the shop at http://localhost:4321. Uses the sandbox when no BigCommerce
 * credentials are configured (started here, or reused if already running), builds the shop
 * when neither the build nor the newest rebuilt release is as new as the sources (or they were
 * made against another upstream or with other build settings, `lib/build-settings.ts`), then
 * serves it through the supervisor of `src/server/serve.ts`, which rebuilds and swaps in a new
 * release when a webhook says the content changed. On the sandbox, the webhook secrets are made
 * (kept in the sandbox folder) and the webhooks registered with the sandbox, so a publish there
 * rebuilds the running shop. `--no-build` serves the existing build as it is, with no rebuilds
 * unless webhook secrets are set in the environment; a copy joining others through Redis
 * (`REDIS_URL` and a webhook secret) serves the release they serve instead, when it was built
 * for this shop. Before building, it checks that the
 * releases folder (`RELEASES_DIR`, default `DIST_DIR`-releases) is not another shop's (other
 * build settings) that a live copy serves: then it stops with the reason.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildShop } from './build.ts';
import {
  distBuiltAt,
  drainSettings,
  initialRelease,
  serveConfigOrExit,
  shareReleasesOrExit,
  shutdownLog,
  superviseShop,
} from '../src/server/serve.ts';
import { stopOnSignals } from '../src/server/shutdown.ts';
import {
  ensureUpstream,
  loadDotEnv,
  registerSandboxWebhooks,
  sandboxWebhookSecrets,
} from './lib/upstream.ts';
import { buildSettingsKey } from '../src/server/rebuild/build-settings.ts';
import { readEnvironment } from '../src/shop/config/environment.ts';
import { newestMtime } from './lib/sources.ts';
import { keptPublisher, type KeptPublisher } from '../src/server/rebuild/builder.ts';

const SOURCES = ['src', 'public', 'astro.config.mjs', 'package-lock.json'];

loadDotEnv();
const noBuild = process.argv.includes('--no-build');
const distDir = readEnvironment(['DIST_DIR']).DIST_DIR;
const stampFile = path.join(distDir, 'build-stamp.json');
const upstream = await ensureUpstream();
Object.assign(process.env, upstream.env);
const sandboxWebhooks = upstream.kind === 'sandbox' && !noBuild;
if (sandboxWebhooks) {
  const secrets = sandboxWebhookSecrets(path.resolve(readEnvironment(['SANDBOX_DIR']).SANDBOX_DIR));
  process.env.CONTENTFUL_WEBHOOK_SECRET ??= secrets.contentful;
  process.env.BIGCOMMERCE_WEBHOOK_SECRET ??= secrets.bigcommerce;
}
const config = serveConfigOrExit('start');

const settings = readEnvironment(
  [
    'BIGCOMMERCE_API_URL',
    'BIGCOMMERCE_STORE_HASH',
    'BIGCOMMERCE_ACCESS_TOKEN',
    'PORT',
    'HOST',
    'REDIS_URL',
  ],
  upstream.env,
);
const upstreamTarget = `${settings.BIGCOMMERCE_API_URL}/${settings.BIGCOMMERCE_STORE_HASH ?? ''}`;
// A build is this upstream's with these baked-in settings (feature flags, site URL...): another
// value of one of them builds again.
const target = `${upstreamTarget} settings:${buildSettingsKey(process.env)}`;
const stamp = existsSync(stampFile)
  ? (JSON.parse(readFileSync(stampFile, 'utf8')) as { target?: string; builtAt?: number })
  : {};
const { PORT: port, HOST: host } = settings;
// Another shop's releases folder (other build settings, a copy serving from it): refused now.
if (!noBuild || config.rebuilds) await shareReleasesOrExit('start', config.releasesDir, port);

const publishEdits = config.rebuilds && config.publishEdits;
let publisher: KeptPublisher | undefined;
let initial = {
  id: path.basename(path.resolve(distDir)),
  dir: path.resolve(distDir),
  builtAt: noBuild ? distBuiltAt(distDir) : (stamp.builtAt ?? 0),
};
if (noBuild && config.rebuilds && (settings.REDIS_URL?.trim() ?? '') !== '') {
  // A copy joining others that build once for all (a restart after a crash): it serves the
  // release they serve, when that one was built for this shop, not its own older build.
  initial = await initialRelease({
    distDir,
    distBuiltAt: 0,
    releasesDir: config.releasesDir,
    target,
  });
}
if (!noBuild) {
  const sourcesTime = Math.max(...(await Promise.all(SOURCES.map(newestMtime))));
  const fresh = stamp.target === target && (stamp.builtAt ?? 0) >= sourcesTime;
  // The newest of a fresh build and a release rebuilt since (from these sources, this upstream).
  initial = await initialRelease({
    distDir,
    distBuiltAt: fresh ? initial.builtAt : 0,
    releasesDir: config.releasesDir,
    target,
    notBefore: sourcesTime,
  });
  const isRelease = initial.dir !== path.resolve(distDir);
  if (!fresh && !isRelease) {
    console.log(`[start] building the shop against ${upstream.kind} (${upstreamTarget})...`);
    // With rebuilds on, the build stays alive to publish edits into what it built.
    const result = await buildShop(upstream, distDir, { keep: publishEdits });
    const builtAt = Date.now();
    writeFileSync(stampFile, JSON.stringify({ target, builtAt }));
    initial = { ...initial, builtAt };
    const { kept } = result;
    if (kept) {
      publisher = keptPublisher(kept, (signal) => {
        kept.kill(signal);
      });
    }
    console.log(`[start] built in ${result.seconds.toFixed(1)} s`);
  }
}

const supervisor = await superviseShop({
  config,
  initial,
  port,
  host,
  target,
  ...(publisher === undefined ? {} : { publisher }),
});
console.log(
  `[start] the shop runs at ${supervisor.url} (upstream: ${upstream.kind}, release ${supervisor.current().id}${config.rebuilds ? ', rebuilds on webhooks' : ''})`,
);

if (sandboxWebhooks) {
  const problems = await registerSandboxWebhooks({
    sandboxUrl: settings.BIGCOMMERCE_API_URL,
    shopUrl: `http://127.0.0.1:${supervisor.port}`,
    contentfulSecret: config.contentfulSecret,
    bigcommerceSecret: config.bigcommerceSecret,
    storeHash: settings.BIGCOMMERCE_STORE_HASH ?? 'sandbox',
    token: settings.BIGCOMMERCE_ACCESS_TOKEN ?? 'sandbox-token',
  });
  for (const problem of problems) {
    console.warn(`[start] sandbox webhook not registered (no rebuild on it): ${problem}`);
  }
  if (problems.length === 0) console.log('[start] sandbox webhooks registered');
}

// The drained stop (src/server/shutdown.ts); the sandbox, when started here, goes after it.
stopOnSignals(supervisor, drainSettings(config), shutdownLog, () => upstream.close());
