import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    globalSetup: ['src/server/test/global-setup.ts'],
    pool: 'forks',
    // Most of a test's time is spent waiting on its server, its database or a stand-in on loopback, so one file
    // per core keeps the cores busy; Vitest's default (one core fewer) runs a single file at a time on two cores.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
