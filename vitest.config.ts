import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // As tsconfig.json's paths: `verbtree` in a capability means this repository's sources.
  resolve: { alias: [{ find: /^verbtree$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }] },
  test: {
    include: ['test/**/*.test.ts', 'capabilities/**/*.test.ts'],
    // Most of the suite waits on real servers and bots (I/O, not CPU): two files at once, one per core, cut the
    // run by a third on a 2-core machine (vitest's default here would be one: the cores less one). Three were
    // faster still but starved a real bot's pathfinder past its 4 s stall limit once in three runs.
    maxWorkers: 2,
    // A file's concurrent tests (describe.concurrent: real servers that mostly wait on the game's time) at most three
    // at once: five starved a bot's join past its 15 s limit on a loaded machine.
    maxConcurrency: 3,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // One initdb per run, copied by every PostgreSQL test file's cluster (test/helpers/postgres.ts); the sources
    // compiled once per run for the CLI children (test/helpers/cli-build.ts).
    globalSetup: ['./test/helpers/postgres-template.ts', './test/helpers/cli-build.ts'],
  },
});
