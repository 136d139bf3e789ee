import fc from 'fast-check';
import type { z } from 'zod';
import { ManualClock } from '../clock/manual-clock.js';
import { queryFor, unmetExpectations, type Expectation } from '../contracts/expectation.js';
import type { Observation } from '../contracts/world.js';
import { join } from 'node:path';
import { assembleExecutor, builtinTreePaths } from '../executor/assemble.js';
import type { ExecutorEvent, PlanResult } from '../executor/events.js';
import { injectFaults } from '../executor/fault-injection.js';
import { ExecutorPolicy } from '../executor/policy.js';
import type { CapabilitySpec } from '../registry/capability-spec.js';
import { dispatchQuery } from '../registry/effects.js';
import { CapabilityRegistry } from '../registry/registry.js';
import { parseFaultSpec } from '../world/faults/parse.js';
import type { SimWorld } from '../world/sim/sim-world.js';
import { arbitraryOutputFor } from './arbitrary.js';

/** The faults a generated schedule draws from: each hits whatever the verb calls while it runs. */
export const CHECK_FAULTS = [
  'hang',
  'throw',
  'reject:effects_unmet',
  'slow:400',
  'flaky:0.5',
  'wrong_effects',
  'never_actuates',
  'partial:300',
] as const;

export interface CheckCapabilityOptions<Schema extends z.ZodType> {
  /** Lays out the SimWorld a run starts in, for these arguments (the clock is the run's virtual one). */
  world(args: z.output<Schema>, clock: ManualClock): SimWorld;
  /**
   * What the step must have done, stated independently of the capability's own acceptance (a reference
   * model): given the arguments, the world's state before the run and the world after it, null when the
   * effect is there, else what is missing. Checked for every step that ends ok, so an acceptance that
   * passes too much is caught (the generated `wrong_effects` faults make actuators succeed without effect).
   */
  effect?(args: z.output<Schema>, before: Observation, world: SimWorld): string | null;
  /** The arguments to try; default: generated from the input schema. */
  args?: fc.Arbitrary<z.output<Schema>>;
  /** The registry the step runs in (add the verbs its sub-goals use); default: one holding only `spec`. */
  registry?: CapabilityRegistry;
  /**
   * Where the trees come from. Default: with a `registry`, the built-in trees and `extraTreePaths`; without
   * one, only the files of the capability's tree (`extraTreePaths`, else the built-in `trees/<tree>.mdsl`).
   */
  extraTreePaths?: readonly string[];
  /** Also run under generated fault schedules (default true). */
  faults?: boolean;
  numRuns?: number;
  seed?: number;
  /** Virtual time a run may take before it counts as hung (default 10 minutes). */
  maxMs?: number;
}

export interface CheckCapabilityReport {
  runs: number;
  ok: number;
  failed: Record<string, number>;
}

interface Case<Args> {
  args: Args;
  fault: string | null;
}

/** An invariant that does not hold, with what was seen. */
class Broken extends Error {
  constructor(invariant: string, evidence: string) {
    super(`${invariant}: ${evidence}`);
    this.name = 'Broken';
  }
}

/**
 * Runs a capability end to end through the executor on SimWorld, over generated arguments and fault
 * schedules, and checks the executor's invariants and that acceptance agrees with the world:
 *  - every step that starts ends exactly once, by its deadline;
 *  - no actuator command starts after its step ended, and none is live at the end;
 *  - local retries stay within the policy;
 *  - a step that ends ok has its expectations met by a fresh observation of the world; a failed one names a code and
 *    why.
 * A broken invariant throws with the counterexample fast-check shrank it to, and the seed to replay it.
 */
export async function checkCapability<Schema extends z.ZodType>(
  spec: CapabilitySpec<Schema>,
  options: CheckCapabilityOptions<Schema>,
): Promise<CheckCapabilityReport> {
  const registry = options.registry ?? new CapabilityRegistry().register(spec);
  const report: CheckCapabilityReport = { runs: 0, ok: 0, failed: {} };
  const args = options.args ?? arbitraryOutputFor(spec.inputSchema);
  const fault = options.faults === false ? fc.constant(null) : fc.option(fc.constantFrom(...CHECK_FAULTS), { freq: 2 });
  const cases = fc.record({ args, fault }) as fc.Arbitrary<Case<z.output<Schema>>>;
  const result = await fc.check(
    fc.asyncProperty(cases, async (tried) => {
      const outcome = await runCase(spec, registry, options, tried);
      report.runs++;
      if (outcome.ok) report.ok++;
      else
        for (const step of outcome.steps)
          if (!step.outcome.ok) report.failed[step.outcome.code] = (report.failed[step.outcome.code] ?? 0) + 1;
    }),
    { numRuns: options.numRuns ?? 50, ...(options.seed !== undefined ? { seed: options.seed } : {}) },
  );
  if (result.failed) {
    const example = result.counterexample?.[0] as Case<unknown> | undefined;
    const why = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
    throw new Error(
      `checkCapability(${spec.name}): ${why}\n  counterexample (shrunk ${result.numShrinks} times): args ${JSON.stringify(example?.args)}, fault ${example?.fault ?? 'none'}\n  replay: seed ${result.seed}, path "${result.counterexamplePath}"`,
    );
  }
  return report;
}

async function runCase<Schema extends z.ZodType>(
  spec: CapabilitySpec<Schema>,
  registry: CapabilityRegistry,
  options: CheckCapabilityOptions<Schema>,
  tried: Case<z.output<Schema>>,
): Promise<PlanResult> {
  const clock = new ManualClock();
  const world = options.world(tried.args, clock);
  const before = await world.observe(dispatchQuery(spec, tried.args));
  const rules = tried.fault ? [parseFaultSpec(`${spec.name}=${tried.fault}`, { extraVerbs: [spec.name] })] : [];
  const { executor } = await assembleExecutor({
    registry,
    world,
    clock,
    ...treesOf(spec, options),
    wrapInvoker: (invoker) => injectFaults(invoker, rules, { clock, seed: 1 }),
  });
  const events: ExecutorEvent[] = [];
  executor.events.on('event', (event) => events.push(event));
  let result: PlanResult | undefined;
  void executor
    .run({
      planId: 'check',
      intentId: 'check',
      steps: [{ stepId: 'step', type: spec.name, args: tried.args as Record<string, unknown> }],
    })
    .result.then((r) => (result = r));
  await clock.runUntil(() => result !== undefined, options.maxMs ?? 600_000);
  if (!result)
    throw new Broken('every step ends', `the run did not end within ${options.maxMs ?? 600_000} ms of virtual time`);
  const endedAt = checkLifecycle(events);
  checkActuators(world, endedAt);
  await checkAcceptance(world, events);
  const own = result.steps.find((step) => step.step.stepId === 'step');
  if (own?.outcome.ok && options.effect) {
    const missing = options.effect(tried.args, before, world);
    if (missing !== null) throw new Broken('acceptance agrees with the world', `the step ended ok but ${missing}`);
  }
  return result;
}

/** A lone capability loads its own tree alone: the other built-in trees' leaves are not bound in its registry. */
function treesOf(
  spec: CapabilitySpec<z.ZodType>,
  options: CheckCapabilityOptions<z.ZodType>,
): { treePaths?: readonly string[]; extraTreePaths?: readonly string[] } {
  if (options.registry) return options.extraTreePaths ? { extraTreePaths: options.extraTreePaths } : {};
  return {
    treePaths: [],
    extraTreePaths:
      options.extraTreePaths ??
      (spec.tree ? builtinTreePaths().map((folder) => join(folder, `${spec.tree}.mdsl`)) : []),
  };
}

/** One terminal event per started step, by its deadline; retries within the policy. Returns when each step ended. */
function checkLifecycle(events: readonly ExecutorEvent[]): Map<string, number> {
  const maxRetries = ExecutorPolicy.parse({}).maxLocalRetries;
  const deadlines = new Map<string, number>();
  const endedAt = new Map<string, number>();
  const retries = new Map<string, number>();
  for (const event of events) {
    if (event.type === 'step.started') deadlines.set(event.stepId, event.deadlineAt);
    // The executor's own retries, which its policy bounds; a tree's retries inside an attempt are the tree's.
    if (event.type === 'step.retry' && !event.inTree) retries.set(event.stepId, (retries.get(event.stepId) ?? 0) + 1);
    if (event.type !== 'step.ended') continue;
    if (endedAt.has(event.stepId)) throw new Broken('one terminal event per step', `${event.stepId} ended twice`);
    endedAt.set(event.stepId, event.at);
    const deadline = deadlines.get(event.stepId);
    if (deadline !== undefined && event.at > deadline)
      throw new Broken(
        'each step ends by its deadline',
        `${event.stepId} ended at ${event.at}, its deadline was ${deadline}`,
      );
  }
  for (const stepId of deadlines.keys())
    if (!endedAt.has(stepId)) throw new Broken('one terminal event per step', `${stepId} started and never ended`);
  for (const [stepId, count] of retries)
    if (count > maxRetries)
      throw new Broken('retries within policy', `${stepId} retried ${count} times, the policy allows ${maxRetries}`);
  return endedAt;
}

function checkActuators(world: SimWorld, endedAt: ReadonlyMap<string, number>): void {
  const lastEnd = Math.max(...endedAt.values());
  const late = world.actuatorLog.find((entry) => entry.startedAt > lastEnd);
  if (late)
    throw new Broken(
      'no actuator after its step',
      `${late.command} (${late.detail}) started at ${late.startedAt}, after the step ended at ${lastEnd}`,
    );
  if (world.liveActuators() > 0)
    throw new Broken(
      'no live actuator at the end',
      `${world.liveActuators()} actuator command(s) still running after the plan ended`,
    );
}

/** An ok step's expectations hold in a fresh observation of the world; a failed step names its code and why. */
async function checkAcceptance(world: SimWorld, events: readonly ExecutorEvent[]): Promise<void> {
  const expected = new Map<string, Expectation[]>();
  for (const event of events) if (event.type === 'step.expects') expected.set(event.stepId, event.expectations);
  for (const event of events) {
    if (event.type !== 'step.ended') continue;
    if (!event.outcome.ok) {
      if (!event.outcome.code || !event.outcome.detail)
        throw new Broken(
          'a failure names its code and evidence',
          `${event.stepId} failed with ${JSON.stringify(event.outcome)}`,
        );
      continue;
    }
    if (event.outcome.deduplicated) continue;
    const expectations = expected.get(event.stepId) ?? [];
    const unmet = unmetExpectations(expectations, await world.observe(queryFor(expectations)));
    if (unmet.length > 0)
      throw new Broken('acceptance agrees with the world', `${event.stepId} ended ok but ${unmet.join('; ')}`);
  }
}
