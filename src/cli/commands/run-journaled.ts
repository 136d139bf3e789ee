import type { CapabilityRegistry } from '../../registry/registry.js';
import type { ExecutorPolicyInput } from '../../executor/policy.js';
import { watchForStop } from '../run-stop.js';
import { systemClock } from '../../clock/system-clock.js';
import type { RunInput } from '../../executor/executor.js';
import type { StepInvoker } from '../../executor/invoker.js';
import { runHealthCheck } from '../../journal/health-check.js';
import { assembleJournaled, PlanConflictError, refuseUnfinished } from '../../journal/journaled-executor.js';
import type { Journal } from '../../journal/journal.js';
import { PlanLease } from '../../journal/lease.js';
import { verifyInterruptedSteps } from '../../journal/resume.js';
import { mergeHooks, type RuntimeHooks } from '../../runtime/hooks.js';
import { RunMonitor } from '../run-monitor.js';
import { validatePlan } from '../../validate/validate-plan.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';
import { openWorld, type WorldChoice } from '../open-world.js';
import { worldKind } from '../worlds.js';
import { progressLine, summaryTable } from '../progress.js';
import { openJournalFor } from './journal-option.js';
import { defaultWorldFolder, prepareResume, type PreparedStart } from './resume-plan.js';

export interface JournaledRunOptions extends WorldChoice {
  journal: string;
  resume?: string;
  /** With resume: run the journaled plan again from its first step, as a new run. */
  restart?: boolean;
  /** With resume: recover orphans past the incidents-per-hour cap, this once (recorded as an incident). */
  overrideIncidentCap?: boolean;
  json?: boolean;
  /** The policy's combat settings from --combat and --fight-health-floor. */
  combat?: Pick<ExecutorPolicyInput, 'safety'>;
  wrapInvoker: (invoker: StepInvoker) => StepInvoker;
  hooks?: RuntimeHooks;
  faultsNote: string;
  /** The project's tree folders, beside the built-in ones. */
  extraTreePaths?: readonly string[];
  /** Serve the monitor for this run on this loopback port (0: a free one). */
  monitorPort?: number;
}

/**
 * `verbtree run --journal` and `--resume`: the same run, with every step
 * journaled. The plan's lease is taken before anything else, so two runs of
 * one plan never act at once and a world folder is never opened twice.
 */
export async function runJournaled(
  plan: unknown,
  registry: CapabilityRegistry,
  io: CliIO,
  setExit: (code: number) => void,
  options: JournaledRunOptions,
): Promise<void> {
  const journal = await openJournalFor(options.journal, { create: options.resume === undefined });
  const cancel = new AbortController();
  try {
    const planId = options.resume ?? planIdOf(plan);
    const lease =
      planId === undefined ? null : await takeLease(journal, planId, options.resume ? 'resume' : 'run', cancel);
    try {
      const start = options.resume
        ? await prepareResume(journal, { ...options, resume: options.resume }, io)
        : await prepareFresh(journal, plan, planId, options, io);
      await execute(journal, start, registry, io, setExit, options, lease, cancel);
    } finally {
      await lease?.release();
    }
  } finally {
    await journal.close();
  }
}

function planIdOf(plan: unknown): string | undefined {
  const planId = (plan as { planId?: unknown } | null)?.planId;
  return typeof planId === 'string' ? planId : undefined;
}

async function takeLease(journal: Journal, planId: string, kind: string, cancel: AbortController): Promise<PlanLease> {
  try {
    return await PlanLease.acquire(journal, planId, {
      clock: systemClock,
      kind,
      onLost: (by) => cancel.abort(new Error(`the plan's lease was taken over by ${by}`)),
    });
  } catch (error) {
    if (error instanceof PlanConflictError) throw new CliUsageError(error.message);
    throw error;
  }
}

/**
 * A new run: what crashed runners left is recovered first; then it is refused, before its world is touched, when
 * the journal holds the plan unfinished. A world kept in a folder (embedded) gets one of its own, unless the
 * command line named one.
 */
async function prepareFresh(
  journal: Journal,
  plan: unknown,
  planId: string | undefined,
  options: JournaledRunOptions,
  io: CliIO,
): Promise<PreparedStart> {
  for (const finding of (await runHealthCheck(journal)).findings)
    if (!options.json) io.out(`journal: ${finding.mode}: ${finding.summary} → ${finding.action}`);
  if (planId !== undefined) {
    try {
      await refuseUnfinished(journal, planId);
    } catch (error) {
      if (error instanceof PlanConflictError) throw new CliUsageError(error.message);
      throw error;
    }
  }
  const worldFolder =
    options.worldFolder ??
    (worldKind(options.world).reads.includes('worldFolder') && planId !== undefined
      ? { path: defaultWorldFolder(options.journal, planId), mode: 'fresh' as const }
      : undefined);
  return { plan, opened: await openWorld({ ...options, ...(worldFolder ? { worldFolder } : {}) }), resumed: false };
}

async function execute(
  journal: Journal,
  start: PreparedStart,
  registry: CapabilityRegistry,
  io: CliIO,
  setExit: (code: number) => void,
  options: JournaledRunOptions,
  lease: PlanLease | null,
  cancel: AbortController,
): Promise<void> {
  const { opened } = start;
  let plan = start.plan;
  const cleanups: (() => void)[] = [];
  const monitor =
    options.monitorPort !== undefined
      ? new RunMonitor(systemClock, 'username' in opened.descriptor ? opened.descriptor.username : 'verbtree')
      : null;
  try {
    const assembly = await assembleJournaled({
      registry,
      world: opened.world,
      clock: opened.clock,
      journal,
      kind: 'run',
      policy: { seed: opened.descriptor.seed, protect: opened.protect ?? [], ...options.combat },
      worldDescriptor: opened.descriptor,
      wrapInvoker: options.wrapInvoker,
      ...(options.extraTreePaths ? { extraTreePaths: options.extraTreePaths } : {}),
      hooks: mergeHooks(options.hooks, monitor?.hooks),
    });
    try {
      if (monitor)
        io.out(
          `monitor: ${await monitor.start({ journal, journalPath: journal.location, registry, assembly, port: options.monitorPort!, world: opened.world, note: (line) => io.out(line) })}`,
        );
      for (const finding of assembly.startup.findings)
        if (!options.json) io.out(`journal: ${finding.mode}: ${finding.summary} → ${finding.action}`);
      if (start.resumed) plan = await settleVerified(journal, plan, registry, assembly.world, io, options);
      if (!options.json) io.out(`world: ${opened.describe}${options.faultsNote}; journal: ${journal.location}`);
      if ((plan as { steps?: unknown[] }).steps?.length === 0) {
        // Every step of the plan is done and verified: nothing to dispatch (an empty plan is never run).
        const planId = (plan as { planId: string }).planId;
        await journal.setPlanStatus(planId, 'succeeded');
        if (!options.json) io.out(`✓ plan ${planId}: every step is done and verified; nothing left to run`);
        setExit(EXIT.ok);
        return;
      }
      // Ctrl-C, SIGTERM or a closed stdout cancels the running step so its end is journaled.
      const stop = watchForStop(io);
      stop.signal.addEventListener('abort', () => cancel.abort(), { once: true });
      cleanups.push(() => stop.dispose());
      let run;
      try {
        run = await assembly.run(plan as RunInput, {
          resumed: start.resumed,
          restart: !start.resumed && options.restart === true,
          signal: cancel.signal,
          ...(lease ? { lease } : {}),
        });
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
      else if (!options.json) io.out(`✗ plan ${result.planId} failed: ${result.code}: ${result.detail}`);
      setExit(result.ok ? EXIT.ok : EXIT.failed);
      if (monitor && !options.json)
        io.out(
          `replay it: verbtree serve --journal ${journal.location} --world none, then open /monitor/#replay=${encodeURIComponent(result.planId)}`,
        );
    } finally {
      for (const cleanup of cleanups) cleanup();
      await monitor?.close();
      await assembly.close();
    }
  } finally {
    await opened.close();
  }
}

/** Interrupted steps whose journaled expectations hold in the live world are achieved; the rest run again. */
async function settleVerified(
  journal: Journal,
  plan: unknown,
  registry: CapabilityRegistry,
  world: Parameters<typeof verifyInterruptedSteps>[3],
  io: CliIO,
  options: JournaledRunOptions,
): Promise<unknown> {
  const report = validatePlan(plan, registry);
  if (!report.ok) return plan;
  const verdicts = await verifyInterruptedSteps(journal, report.plan.planId, report.steps, world);
  if (!options.json) {
    for (const { stepId, held } of verdicts.achieved)
      io.out(`already achieved (checked against the live world): ${stepId}: ${held.join('; ')}`);
    for (const { stepId, why } of verdicts.rerun) io.out(`runs again: ${stepId}: ${why}`);
  }
  const achieved = new Set(verdicts.achieved.map((a) => a.stepId));
  const current = plan as { steps: { stepId: string }[] };
  return { ...current, steps: current.steps.filter((s) => !achieved.has(s.stepId)) };
}
