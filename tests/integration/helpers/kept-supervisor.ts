/**
 * A supervisor in this process (src/server/rebuild/supervisor.ts, its workers forked from here)
 * publishing through the kept build's stand-in (helpers/kept-build.ts), as the publisher tests
 * start it: one worker on a free port serving `dist` at start, a 50 ms debounce, a minute per
 * build, no periodic full build, its log lines dropped.
 */
import path from 'node:path';
import {
  startSupervisor,
  type Supervisor,
  type SupervisorOptions,
} from '../../../src/server/rebuild/supervisor.ts';

export interface KeptSupervisorSetup {
  dist: string;
  releasesDir: string;
  /** The stand-in's variables (`KEPT_BEHAVIOUR`, `FAIL_FLAG`), beside `FIXTURE_DIST` = `dist`. */
  keptEnv: NodeJS.ProcessEnv;
  /** Rebuild settings over the defaults (a publish deadline, the retries' backoff). */
  rebuild?: Partial<NonNullable<SupervisorOptions['rebuild']>>;
  logError?: SupervisorOptions['logError'];
}

export function startKeptSupervisor({
  dist,
  releasesDir,
  keptEnv,
  rebuild = {},
  logError,
}: KeptSupervisorSetup): Promise<Supervisor> {
  return startSupervisor({
    workerExec: path.resolve('src/server/serve.ts'),
    initial: { id: 'dist', dir: dist, builtAt: Date.now() },
    port: 0,
    host: '127.0.0.1',
    workers: 1,
    releasesDir,
    rebuild: {
      debounceMs: 50,
      timeoutMs: 60_000,
      command: [
        process.execPath,
        path.resolve('tests/integration/helpers/kept-build.ts'),
        '--out-dir',
      ],
      env: { ...process.env, FIXTURE_DIST: dist, ...keptEnv },
      publisher: true,
      fullBuildEveryMs: 0,
      ...rebuild,
    },
    log: () => undefined,
    ...(logError && { logError }),
  });
}
