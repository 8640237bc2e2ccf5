/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

// Two projects: `unit` (pure rules, no I/O) and `integration` (connectors, middleware and the
// sandbox over real HTTP on free ports with fresh databases).
export default getViteConfig({
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
