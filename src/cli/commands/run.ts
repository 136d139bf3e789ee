import { watchForStop } from '../run-stop.js';
import { Command } from 'commander';
import type { CapabilityRegistry } from '../../registry/registry.js';
import { assembleExecutor } from '../../executor/assemble.js';
import { injectFaults } from '../../executor/fault-injection.js';
import type { RunInput } from '../../executor/executor.js';
import { stepClock } from '../../clock/lag-discounting-clock.js';
import { FAULT_SYNTAX, FaultSpecError, parseFaultSpecs } from '../../world/faults/parse.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';
import { openWorld } from '../open-world.js';
import { addWorldOptions, worldChoiceOf } from '../world-options.js';
import { progressLine, summaryTable } from '../progress.js';
import { loadStuckConfig } from '../../recovery/config.js';
import { recordNodeStates } from '../node-recorder.js';
import { readJsonFile } from '../read-json.js';
import { DEFAULT_JOURNAL_PATH } from '../../journal/journal.js';
import { runJournaled } from './run-journaled.js';
import { forkExplorer } from '../../foresight/index.js';
import { addCombatOptions, type CombatOptions, combatPolicy } from '../combat-options.js';

/** What run reads itself; the world's settings come from worldChoiceOf (worldFolder is here to refuse --resume). */
interface RunOptions extends CombatOptions {
  fault: string[];
  json?: boolean;
  journal?: string | true;
  recordNodes?: string;
  stuckConfig?: string;
  resume?: string;
  restart?: boolean;
  overrideIncidentCap?: boolean;
  worldFolder?: object;
  monitor?: number | true;
}

const collect = (value: string, previous: string[]) => [...previous, value];

function monitorPortOf(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliUsageError(`--monitor takes a port from 0 to 65535 (0 picks a free one), got "${value}"`);
  return port;
}

/** `extraTreePaths`: the project's tree folders, loaded beside the built-in ones. */
export function runCommand(
  registry: () => CapabilityRegistry,
  io: CliIO,
  setExit: (code: number) => void,
  extraTreePaths: () => readonly string[] = () => [],
): Command {
  const command = new Command('run')
    .description(
      'Run a plan: each step validated, executed as its behavior tree under watchdogs, repaired or escalated, and verified.',
    )
    .argument('[plan.json]', 'the plan to run (omit with --resume)');
  addCombatOptions(command);
  return addWorldOptions(command, {
    default: 'embedded',
    settings: ['host', 'port', 'username', 'version', 'isolate', 'scenario', 'worldFolder'],
    own: {
      worldFolder: {
        description:
          'keep the embedded world in this folder (reopened as it is if a verbtree run made it); journaled runs default to worlds/<planId> next to the journal',
      },
    },
  })
    .option('--fault <verb=fault>', `inject a fault, repeatable: ${FAULT_SYNTAX}`, collect, [])
    .option('--json', 'print every event as one JSON line instead of progress text')
    .option(
      '--stuck-config <file>',
      'stuck detection and recovery settings as JSON (thresholds, strategies, budgets); missing keys keep the defaults',
    )
    .option(
      '--record-nodes <file>',
      'write every tree node state change as JSON lines, for `verbtree tree show <tree> --run <file>`',
    )
    .option(
      '--monitor [port]',
      'serve the monitor (live tree, timeline, map; replay afterwards) for this run on 127.0.0.1 and print its address; journals the run (default journal unless --journal)',
      monitorPortOf,
    )
    .option(
      '--journal [path or url]',
      `journal every step (a SQLite file, default ${DEFAULT_JOURNAL_PATH}, or a postgres:// URL) so a crash can be diagnosed and resumed`,
    )
    .option(
      '--resume <planId>',
      'continue a journaled plan after a crash in the same world: recover orphaned steps, skip succeeded ones, check interrupted ones against the live world',
    )
    .option(
      '--restart',
      'with --resume: run the journaled plan again from its first step, as a new run, in a world made afresh (when the old one is gone or changed)',
    )
    .option(
      '--override-incident-cap',
      'with --resume: recover orphaned steps even past the incidents-per-hour cap, for this resume only (recorded as an incident)',
    )
    .addHelpText(
      'after',
      `
Exit codes: 0 the plan succeeded and every effect was verified, 1 it failed (the output says which step and why), 2 usage error.

Examples:
  $ verbtree run examples/acquire-wood.plan.json --scenario examples/scenarios/forest.json
  $ verbtree run examples/acquire-wood.plan.json --world sim --scenario examples/scenarios/forest.json
  $ verbtree run examples/walk.plan.json --host mc.example.org --port 25565 --username scout --version 1.21.4
  $ verbtree run examples/walk.plan.json --world sim --fault navigate=hang
  $ verbtree run examples/walk.plan.json --world sim --fault dig_block=flaky:0.3 --seed 7 --json
  $ verbtree run examples/walk.plan.json --journal
  $ verbtree run examples/acquire-wood.plan.json --scenario examples/scenarios/forest.json --monitor 7071
  $ verbtree run --resume walk --journal .verbtree/journal.db
  $ verbtree run --resume walk --restart
  $ verbtree run examples/walk.plan.json --world sim --record-nodes walk.jsonl && verbtree tree show navigate --run walk.jsonl`,
    )
    .action(async (planFile: string | undefined, options: RunOptions, self: Command) => {
      if (planFile === undefined && options.resume === undefined)
        throw new CliUsageError('give a plan file, or --resume <planId> to continue a journaled plan');
      if (planFile !== undefined && options.resume !== undefined)
        throw new CliUsageError(
          'give either a plan file or --resume <planId>, not both (a resumed plan comes from the journal)',
        );
      if (options.resume === undefined && (options.restart || options.overrideIncidentCap))
        throw new CliUsageError(
          `${options.restart ? '--restart' : '--override-incident-cap'} applies to a journaled plan: add --resume <planId>`,
        );
      if (options.worldFolder !== undefined && options.resume !== undefined)
        throw new CliUsageError(
          '--world-folder does not combine with --resume: a resumed plan reopens the world folder the journal names',
        );
      const choice = worldChoiceOf(self)!;
      let faults;
      try {
        faults = parseFaultSpecs(options.fault, { extraVerbs: registry().verbs() });
      } catch (error) {
        if (error instanceof FaultSpecError) throw new CliUsageError(error.message);
        throw error;
      }
      if (options.stuckConfig && (options.journal !== undefined || options.resume !== undefined)) {
        throw new CliUsageError(
          '--stuck-config does not combine with --journal or --resume in this version; run without the journal to tune stuck detection',
        );
      }
      const stuckConfig = options.stuckConfig
        ? await loadStuckConfig(options.stuckConfig).catch((error: Error) => {
            throw new CliUsageError(error.message);
          })
        : undefined;
      const recorder = options.recordNodes ? recordNodeStates(options.recordNodes) : undefined;
      try {
        const journalPath =
          options.journal === true ||
          (options.journal === undefined && (options.resume || options.monitor !== undefined))
            ? DEFAULT_JOURNAL_PATH
            : options.journal;
        if (journalPath !== undefined) {
          const plan = planFile === undefined ? undefined : await readJsonFile(planFile);
          const faultsNote = faults.length ? `; faults: ${faults.map((f) => f.spec).join(', ')}` : '';
          const wrapInvoker = (invoker: Parameters<typeof injectFaults>[0]) =>
            injectFaults(invoker, faults, { clock: stepClock, seed: choice.seed });
          const { resume, restart, overrideIncidentCap, json } = options;
          // Awaited here: the finally below closes the recorder, which must outlive the run it records.
          return await runJournaled(plan, registry(), io, setExit, {
            ...choice,
            resume,
            restart,
            overrideIncidentCap,
            json,
            combat: combatPolicy(options),
            journal: journalPath,
            extraTreePaths: extraTreePaths(),
            wrapInvoker,
            faultsNote,
            ...(recorder ? { hooks: recorder.hooks } : {}),
            ...(options.monitor !== undefined ? { monitorPort: options.monitor === true ? 0 : options.monitor } : {}),
          });
        }
        const plan = await readJsonFile(planFile!);
        const opened = await openWorld(choice);
        try {
          const { executor, runner } = await assembleExecutor({
            registry: registry(),
            extraTreePaths: extraTreePaths(),
            world: opened.world,
            clock: opened.clock,
            policy: { seed: choice.seed, protect: opened.protect ?? [], ...combatPolicy(options) },
            wrapInvoker: (invoker) => injectFaults(invoker, faults, { clock: opened.clock, seed: choice.seed }),
            ...(recorder ? { hooks: recorder.hooks } : {}),
            ...(stuckConfig ? { stuck: stuckConfig.detection, recovery: stuckConfig.recovery } : {}),
            // Branch exploration, when the stuck config turns it on, tries its ways out on forks in worker threads.
            ...(stuckConfig?.recovery.branches.enabled ? { explorer: forkExplorer() } : {}),
          });
          if (!options.json)
            io.out(
              `world: ${opened.describe}${faults.length ? `; faults: ${faults.map((f) => f.spec).join(', ')}` : ''}`,
            );
          const stop = watchForStop(io);
          // Read from a file: `run` validates it as it validates anyone's input.
          const run = executor.run(plan as RunInput, { signal: stop.signal });
          let result;
          try {
            for await (const event of run) {
              const line = options.json ? JSON.stringify(event) : progressLine(event);
              if (line) io.out(line);
            }
            result = await run.result;
          } finally {
            stop.dispose();
          }
          if (!options.json && result.steps.length > 0) io.out(summaryTable(result));
          else if (!options.json) io.out(`✗ plan ${result.planId} failed: ${result.code}`);
          await runner.shutdown();
          setExit(result.ok ? EXIT.ok : EXIT.failed);
        } finally {
          await opened.close();
        }
      } finally {
        await recorder?.close();
      }
    });
}
