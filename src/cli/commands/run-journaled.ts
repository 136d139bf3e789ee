import { resolve } from 'node:path';
import type { CapabilityRegistry } from '../../registry/registry.js';
import { systemClock } from '../../clock/system-clock.js';
import type { StepInvoker } from '../../executor/invoker.js';
import { runHealthCheck } from '../../journal/health-check.js';
import { assembleJournaled, PlanConflictError } from '../../journal/journaled-executor.js';
import type { RuntimeHooks } from '../../runtime/hooks.js';
import { ResumeError, resumePoint, settleAchievedSteps } from '../../journal/resume.js';
import { simWorldFromJournal } from '../../journal/sim-restore.js';
import { validatePlan } from '../../validate/validate-plan.js';
import { loadScenario } from '../../world/scenario/load.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';
import { openWorld, type OpenedWorld, type WorldChoice } from '../open-world.js';
import type { Journal } from '../../journal/journal.js';
import { progressLine, summaryTable } from '../progress.js';
import { openJournalFor } from './journal-option.js';

export interface JournaledRunOptions extends WorldChoice {
  journal: string;
  resume?: string;
  json?: boolean;
  wrapInvoker: (invoker: StepInvoker) => StepInvoker;
  hooks?: RuntimeHooks;
  faultsNote: string;
}

/** The world a plan was opened on, journaled with it so a resume opens the same one. */
type WorldDescriptor = Pick<WorldChoice, 'world' | 'scenario' | 'seed' | 'host' | 'port' | 'username' | 'version' | 'isolate'>;

function describeWorld(choice: WorldChoice): WorldDescriptor {
  const { world, scenario, seed, host, port, username, version, isolate } = choice;
  const descriptor: WorldDescriptor = { world, seed, ...(scenario ? { scenario: resolve(scenario) } : {}) };
  if (world === 'remote') Object.assign(descriptor, { host, port, username, version });
  if (world === 'embedded') Object.assign(descriptor, { username, version, ...(isolate ? { isolate } : {}) });
  return descriptor;
}

/**
 * `verbtree run --journal` and `--resume`: the same run, with every step
 * journaled, after recovering what crashed runners left in the journal.
 */
/**
 * A sim world died with the crashed process: rebuild it from the scenario and
 * the journaled effects. A remote server kept its world; an embedded one
 * starts again from its scenario (completed steps' effects are not replayed
 * there: acceptance and guards judge the remaining steps against it).
 */
async function openResumedWorld(journal: Journal, planId: string, descriptor: WorldDescriptor, done: number): Promise<OpenedWorld> {
  if (descriptor.world !== 'sim') return openWorld(descriptor);
  const scenario = descriptor.scenario ? await loadScenario(descriptor.scenario).catch((error: Error) => Promise.reject(new CliUsageError(error.message))) : undefined;
  const world = simWorldFromJournal(journal, planId, { clock: systemClock, seed: descriptor.seed, ...(scenario ? { scenario } : {}) });
  return {
    world,
    clock: systemClock,
    describe: `SimWorld rebuilt from the journal (seed ${descriptor.seed}${scenario ? `, scenario ${scenario.name}` : ''} + effects of ${done} completed step${done === 1 ? '' : 's'})`,
    close: () => world.close(),
  };
}

export async function runJournaled(plan: unknown, registry: CapabilityRegistry, io: CliIO, setExit: (code: number) => void, options: JournaledRunOptions): Promise<void> {
  const journal = openJournalFor(options.journal, { create: options.resume === undefined });
  try {
    let descriptor = describeWorld(options);
    let opened: OpenedWorld;
    if (options.resume) {
      // Recover orphans before reading what is left of the plan.
      const recovered = runHealthCheck(journal);
      for (const finding of recovered.findings) if (!options.json) io.out(`journal: ${finding.mode}: ${finding.summary} → ${finding.action}`);
      let point;
      try {
        point = resumePoint(journal, options.resume);
      } catch (error) {
        if (error instanceof ResumeError) throw new CliUsageError(error.message);
        throw error;
      }
      // A resumed plan acts in the world it was journaled with, not whatever --world defaults to today.
      if (point.world) descriptor = point.world as unknown as WorldDescriptor;
      opened = await openResumedWorld(journal, options.resume, descriptor, point.done.length);
      plan = point.plan;
      if (point.escalation && !options.json) {
        const { planner, rung, failedStepId } = point.escalation;
        io.out(`plan ${options.resume} was escalated before it stopped: continuing the replacement planner ${planner} sent at rung ${rung} after ${failedStepId} failed`);
      }
      if (!options.json) io.out(`resuming plan ${options.resume}: done ${point.done.join(', ') || '–'}; skipped ${point.skipped.join(', ') || '–'}; to run ${point.plan.steps.map((s) => s.stepId).join(', ') || '–'}`);
    } else {
      opened = await openWorld(options);
    }
    const world = opened.world;
    const describe = opened.describe;
    const cleanups: (() => void)[] = [];
    const assembly = await assembleJournaled({ registry, world, clock: opened.clock, journal, kind: 'run', policy: { seed: descriptor.seed }, wrapInvoker: options.wrapInvoker, ...(options.hooks ? { hooks: options.hooks } : {}) });
    try {
      for (const finding of assembly.startup.findings) if (!options.json) io.out(`journal: ${finding.mode}: ${finding.summary} → ${finding.action}`);
      if (options.resume) {
        const report = validatePlan(plan, registry);
        if (report.ok) {
          const achieved = await settleAchievedSteps(journal, options.resume, report.steps, assembly.world);
          if (achieved.length && !options.json) io.out(`already achieved before the crash (acceptance holds): ${achieved.join(', ')}`);
          const current = plan as { steps: { stepId: string }[] };
          plan = { ...current, steps: current.steps.filter((s) => !achieved.includes(s.stepId)) };
        }
      }
      if (!options.json) io.out(`world: ${describe}${options.faultsNote}; journal: ${options.journal}`);
      // Ctrl-C or SIGTERM cancels the running step so its end is journaled; a second one kills as usual.
      const cancel = new AbortController();
      const stop = (signal: NodeJS.Signals) => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        io.err(`${signal}: cancelling the running step; send it again to kill`);
        cancel.abort();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      cleanups.push(() => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      });
      let run;
      try {
        run = assembly.run(plan, { resumed: options.resume !== undefined, world: descriptor, signal: cancel.signal });
      } catch (error) {
        if (error instanceof PlanConflictError) throw new CliUsageError(error.message);
        throw error;
      }
      for await (const event of run) {
        const line = options.json ? JSON.stringify(event) : progressLine(event);
        if (line) io.out(line);
      }
      const result = await run.result;
      if (!options.json && result.steps.length > 0) io.out(summaryTable(result));
      else if (!options.json) io.out(result.ok ? `✓ plan ${result.planId}: nothing left to run` : `✗ plan ${result.planId} failed: ${result.code}`);
      setExit(result.ok ? EXIT.ok : EXIT.failed);
    } finally {
      for (const cleanup of cleanups) cleanup();
      await assembly.close();
      await opened.close();
    }
  } finally {
    journal.close();
  }
}
