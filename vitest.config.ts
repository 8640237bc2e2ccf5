/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

// Three projects: `unit` (pure rules, no I/O), `integration` (connectors, middleware and the
// sandbox over real HTTP on free ports with fresh databases, the sandbox's own `sandbox/tests`
// included) and `scale` (on the build: two production servers sharing one Redis, and the
// server with its upstream down).
export default getViteConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // A guard against a hang, not a speed limit: the property tests' thousands of runs
          // took over the default 5 s on a loaded machine (speed is for the benchmarks).
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // The sandbox's own tests (sandbox/, the workspace package) run here too.
          include: ['tests/integration/**/*.test.ts', 'sandbox/tests/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        // Needs the production build (DIST_DIR) and redis-server: run by `npm test` after the build.
        extends: true,
        test: {
          name: 'scale',
          include: ['tests/scale/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
