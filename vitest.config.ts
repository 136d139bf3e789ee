import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/helpers/slow-first-sequencer.js';

/**
 * Tests that start no process or database and leave no global state behind (the capabilities' SimWorld run
 * and acceptance files, SimWorld's own, the kit's, recovery's, registry's, stuck detection's and validation's, and the
 * runtime's, executor's, world rules', foresight's, bench's, monitor model's and others' that run on SimWorld, a
 * ManualClock or pure functions), and real-server files whose embedded server runs in process and stops with its bots
 * after the file: they share their workers' modules (`isolate: false`). Isolated, each such file spent
 * some 4 s importing the executor, the registry and every capability again (44 files at load ~14: 190 s of import and
 * 191 s of run; shared, 20 s and 92 s). 59 of the 65 files added next took 95 s + 67 s isolated, 10 s + 27 s shared (two
 * batches, load 5 to 10); a full run had spent some 1.4 s of a worker per isolated file between its tests (the vitest
 * JSON of the last CI run). A file added to this set must leave nothing behind.
 */
const SHARED_MODULES = [
  'capabilities/*/run.test.ts',
  'capabilities/*/acceptance.test.ts',
  'test/world/sim-*.test.ts',
  'test/{kit,recovery,registry,stuck,validate}/**/*.test.ts',
  // Named one by one: a new file beside them is isolated until someone checks it belongs here. A helper a shared file
  // imports registers no hook when it loads (it would run for the first file of the worker only): it cleans up with
  // the calling test's own onTestFinished, as test/journal/helpers.ts and test/mcp/helpers.ts do.
  'test/runtime/{binding-registry,cancellation,cli-commands,hooks,lint-capabilities,lint,node-state-tap,repair-idioms,tree-definitions,watchdogs}.test.ts',
  'test/runtime/{mistreevous-differential,random-trees}.property.test.ts',
  'test/executor/{assemble-trees,contract-runs,durability,escalation,faults,guards,hazard-safety,lifecycle}.test.ts',
  'test/executor/{preemption,safety-ranged,stuck-scenarios,tree-retries,verb-faults}.test.ts',
  'test/executor/safety/encounter.test.ts',
  'test/world/{armour,breath-rules,combat,creeper,despawn,faults-parse,faults-runner,faults-world}.test.ts',
  'test/world/{mob-reach-cover,mob-rules,open-actuators,recipes,rejoining-world,scenario,spider}.test.ts',
  'test/{api/node-feed,bench/night-pool,bench/night-timings,cli/headroom,contracts/stands-on}.test.ts',
  'test/{docs/failure-codes,foresight/fork-job,foresight/fork-mobs,journal/write-queue}.test.ts',
  'test/{monitor/fleet-model,monitor/model-progress,package/source-maps,package/engines,public-api}.test.ts',
  'test/{testing/arbitrary-output,testing/check-capability}.test.ts',
  'test/truth/acceptance-partial.property.test.ts',
  'capabilities/{imports,index}.test.ts',
  'capabilities/{attack_entity/crowd,dig_in/ground}.test.ts',
  'test/bench/{fleet-limits,techtree-survival}.test.ts',
  'test/cli/{join-gate,worker-claim-renewal,worker-first-join-away,worker-metrics}.test.ts',
  'test/examples/goal-planner.test.ts',
  'test/executor/{effect-before-retry,loop-stall,low-health-shelter,preempted-effects,property,shelter-exit}.test.ts',
  'test/executor/safety/assess.test.ts',
  'test/foresight/{branches,hard-cases,safety-forks}.test.ts',
  'test/testing/{check-new-verbs,guard-context}.test.ts',
  'test/truth/{no-relaxation,user-code}.test.ts',
  'test/world/{stands-on-sim.property,survival-terrain}.test.ts',
  'test/world/{activation-rules,entity-grid,entity-tracking-joins,player-info,server-mark}.test.ts',
  'test/world/{stackless-frames,tab-list-latency}.test.ts',
  'test/{bench/fleet-layout,foresight/fork-world}.test.ts',
  // On SQLite journals in temp folders and SimWorld (test/journal/helpers.ts, test/mcp/helpers.ts).
  'test/journal/{health-check,helpers,journal,lease,lease-wall-clock,rejected-plan}.test.ts',
  'test/journal/{rollback-order-property,rollback-property}.test.ts',
  'test/mcp/{canaries,control,escalation,helpers,long-actions,resources,tools}.test.ts',
  'test/operations/{bot-away-status,fleet-bots,operations}.test.ts',
  'test/executor/{progress,run-control}.test.ts',
  // Real-server files with an embedded server in process each (test/helpers/embedded.ts), stopped with
  // its bots after the file; flying-squid's process-wide error handlers are replaced when it loads
  // (src/world/embedded/flying-squid.ts). Isolated, each spent some 5 s importing mineflayer, flying-squid and the
  // runtime again. A probe after each file (process.getActiveResourcesInfo and the process listeners) found only the
  // worker's own pipes, the same at every file's end.
  'capabilities/{activate_block,build_structure,collect_block,collect_drops,consume_food,craft_item}/server.test.ts',
  'capabilities/{dig_block,equip,explore,flee,follow_entity,guard_area,navigate,pillar_up}/server.test.ts',
  'capabilities/{place_block,sleep,smelt_item,store_items}/server.test.ts',
  'capabilities/{navigate/water,sleep/carried-bed-server}.test.ts',
  'test/world/{containers-server,drowning-server,find-exposed,hazard-pathing,mineflayer-world}.test.ts',
  'test/world/{movement-updates-server,open-actuators-server,place-against-server,players-server}.test.ts',
  'test/{world/stands-on-server,foresight/fork-server,examples/goal-planner-server}.test.ts',
  'test/world/{activate-parity,afloat-server,creeper-server,dig-landing,sleep-server}.test.ts',
  'test/world/stands-on-server.property.test.ts',
  'test/executor/{hazard-escape-server,idempotency,shelters-server}.test.ts',
  'test/{truth/embedded-truth,journal/rollback-server-property}.test.ts',
  // The CLI in process (runCli: `run --world sim` removes its signal handlers when the plan ends; registry, validate),
  // pure rules on stand-in bots (path resets, resting physics, shared block states: each bot its own), fake timers
  // restored after each test, SQLite journals in temp folders. Not minecraft-data-memo nor physics-requires: they
  // patch what mineflayer's modules require and read how it was before the first load.
  'test/cli/{combat-options,json-files,registry,registry-canary,run,validate}.test.ts',
  'test/world/{path-resets,resting-physics,shared-block-states}.test.ts',
  'test/{clock/lag-discounting-clock,foresight/branches-journal,journal/journaled-shadow,runtime/prompt-pickup}.test.ts',
];

export default defineConfig({
  // As tsconfig.json's paths: `verbtree` in a capability means this repository's sources.
  resolve: { alias: [{ find: /^verbtree$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }] },
  test: {
    // Most of the suite waits on real servers and bots (I/O, not CPU): two files at once, one per core, cut the
    // run by a third on a 2-core machine (vitest's default here would be one: the cores less one). Three were
    // faster still but starved a real bot's pathfinder past its 4 s stall limit once in three runs.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A file's concurrent tests (describe.concurrent: real servers that mostly wait on the game's time) at most three
    // at once: five starved a bot's join past its 15 s limit on a loaded machine.
    maxConcurrency: 3,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // The slowest files first, by a past run's durations: a slow file started last would run alone at the end.
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      { extends: true, test: { name: 'shared-modules', include: SHARED_MODULES, isolate: false } },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts', 'capabilities/**/*.test.ts'],
          exclude: SHARED_MODULES,
          // One initdb per run, copied by every PostgreSQL test file's cluster (test/helpers/postgres.ts); the sources
          // compiled once per run for the CLI children (test/helpers/cli-build.ts).
          globalSetup: ['./test/helpers/postgres-template.ts', './test/helpers/cli-build.ts'],
        },
      },
    ],
  },
});
