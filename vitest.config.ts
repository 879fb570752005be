import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { DATABASE_INDEPENDENT_TESTS } from './src/server/test/database-independent.ts';

export default defineConfig({
  test: {
    globalSetup: ['src/server/test/global-setup.ts'],
    pool: 'forks',
    // Most of a test's time is spent waiting on its server, its database or a stand-in on loopback, so one file
    // per core keeps the cores busy; Vitest's default (one core fewer) runs a single file at a time on two cores.
    maxWorkers: Math.max(2, availableParallelism()),
    // Hang guards, not speed targets (bench:* measures speed): when CI ran the PostgreSQL pass beside
    // the browser journeys on two cores, a test that takes 6 s alone took over 60 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/server/**/*.test.ts', 'src/render/**/*.test.ts', 'src/contract/**/*.test.ts'],
          // The pass on PostgreSQL (CI's second) runs only what can differ on it.
          exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_URL ? DATABASE_INDEPENDENT_TESTS : [])],
          // Importing the app took about 2.5 s per file, a quarter of the run, and each file loaded the embedded
          // database's WebAssembly again. These files share a worker's modules instead: each builds its own app and
          // database, none mocks a module or changes the environment, and what the modules keep is caches.
          isolate: false,
        },
      },
      {
        extends: true,
        // Its files run in threads, away from the server's forks: the contract names its schemas in
        // zod's registry on `globalThis`, and a server's OpenAPI document read in a process holding two
        // copies of the contract would meet two schemas of one name.
        // A thread's files share one window and the app's modules, as the tests of one file always
        // did: `withServer` clears after each test what the app keeps (toasts, the query cache,
        // storage), signs out and drops an imported draft after each file, and each file points the
        // window at its own server. Importing the app and a server again for each file was 170 s of
        // a 280 s run on two cores.
        test: { name: 'web', include: ['src/web/**/*.test.ts', 'src/web/**/*.test.tsx'], pool: 'threads', isolate: false },
      },
    ],
  },
});
