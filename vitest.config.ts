import { defineConfig } from 'vitest/config';

// Two projects run the suite against both database servers the product supports:
// - service:  every test, on the PostgreSQL 15 service (TEST_DATABASE_URL overrides);
// - embedded: the database-using folders again, on one embedded server (see test/support/databaseServer.ts).
// Each test file gets its own database from freshDatabase(), so files run in parallel safely.
const databaseFolders = ['test/db', 'test/extract', 'test/load', 'test/reports', 'test/cli', 'test/gains', 'test/imports', 'test/valuation'];

export default defineConfig({
  test: {
    // Timeouts bound a hang; they assert no speed. CI may share the machine with other work: at
    // load 20-24 on 2 cores a whole sync of the tiny sandbox or a test running four CLI commands took
    // ~55 s (against 60 s), so the defaults leave room for three times that.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    // expect.poll waits for a page or a process to reach a state; 1 s (vitest's default) is less
    // than a browser round trip takes while both projects load the 2 cores. It bounds a wait, it
    // asserts no speed.
    expect: { poll: { timeout: 20_000 } },
    // 2 cores: two workers keep both busy while tests wait on PostgreSQL and HTTP.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'service',
          include: ['test/**/*.test.ts'],
          exclude: ['test/bench/**', 'node_modules/**'],
          globalSetup: ['test/support/databaseServer.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'embedded',
          include: databaseFolders.map((folder) => `${folder}/**/*.test.ts`),
          // These start their own servers or need none: a second run here would add time, not coverage.
          exclude: ['test/bench/**', 'node_modules/**', 'test/db/embeddedServer.test.ts', 'test/db/resolveDatabase.test.ts'],
          globalSetup: ['test/support/databaseServer.ts'],
        },
      },
    ],
  },
});
