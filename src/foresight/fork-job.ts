import { pathToFileURL } from 'node:url';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../clock/index.js';
import { queryFor, type Expectation } from '../contracts/expectation.js';
import type { Observation } from '../contracts/world.js';
import { assembleExecutor } from '../executor/assemble.js';
import type { ExecutorEvent, PlanResult } from '../executor/events.js';
import { branchProgress, itemsSpent } from '../recovery/branches.js';
import { registerContribution } from '../registry/contribution.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { forkWorld, type ForkWorld } from './fork.js';
import type { CapturedView } from './view.js';

/** One step to try on a fork: a canonical verb and its arguments, and how much simulated time it may take. */
export interface ForkJob {
  verb: string;
  args: Record<string, unknown>;
  /** Simulated milliseconds the step may run on the fork before it is cut off (`sim_budget`). */
  simBudgetMs: number;
  /** Steps run on the fork before this one, in order, as one plan (a branch: pillar up, then the step). */
  prelude?: { verb: string; args: Record<string, unknown> }[];
  /** Expectations to judge the fork's end by (`progress`), e.g. those of the real step this job is a way out for. */
  judgeBy?: Expectation[];
  /** The version of the verb to run (a canary is made to act on the fork); default the version that acts. */
  version?: string;
  /** Capability modules (file paths, as a project config lists them) registered on the fork beside the built-in ones. */
  capabilityModules?: string[];
  /** Tree folders or files loaded beside the built-in trees, for those modules' capabilities. */
  treePaths?: string[];
}

/**
 * How a step went on a fork. `ok` and `failed` are the executor's verdict, checked against the fork's truth;
 * `sim_budget` and `wall_budget` say the fork was cut off first; `crashed` that the fork itself failed.
 */
export interface ForkOutcome {
  outcome: 'ok' | 'failed' | 'sim_budget' | 'wall_budget' | 'crashed';
  code?: string;
  detail?: string;
  /** What the step said it would make true (its `step.expects`), and which of those did not hold. */
  expectations: Expectation[];
  unmet: string[];
  /** Health lost on the fork, summed over every hurt. */
  damage: number;
  simulatedMs: number;
  /** Reads of cells the view did not hold (ForkWorld.unknownTouches): the less, the surer. */
  unknownTouches: number;
  /** With `judgeBy`: how far the fork came toward those expectations, 0 to 1 (branchProgress). */
  progress?: number;
  /** Items the pack lost on the fork (blocks placed, ingredients used). */
  spent?: number;
  /** Simulated milliseconds to the step's first actuator command, null when it made none (absent when cut off). */
  ttfaMs?: number | null;
}

const STEP_ID = 'foresight';

/** Runs `job` through the executor on a fork of `view`, on virtual time; never touches any other world. */
export async function runForkJob(view: CapturedView, job: ForkJob): Promise<ForkOutcome> {
  const clock = new ManualClock();
  const fork = forkWorld(view, { clock });
  let damage = 0;
  let health = fork.health();
  fork.events.on('hurt', (now) => {
    damage += Math.max(0, health - now);
    health = now;
  });
  const { executor } = await assembleExecutor({
    registry: await forkRegistry(job),
    world: fork,
    clock,
    ...(job.treePaths ? { extraTreePaths: job.treePaths } : {}),
  });
  const events: ExecutorEvent[] = [];
  executor.events.on('event', (event) => events.push(event));
  const controller = new AbortController();
  let result: PlanResult | undefined;
  const prelude = (job.prelude ?? []).map((step, index) => ({
    stepId: `${STEP_ID}-${index + 1}`,
    type: step.verb,
    args: step.args,
  }));
  const steps = [
    ...prelude,
    { stepId: STEP_ID, type: job.verb, args: job.args, ...(job.version ? { version: job.version } : {}) },
  ].map((step) => ({ ...step, args: withForkIds(fork, step.args) }));
  const before = await judgement(fork, job);
  void executor
    .run({ planId: STEP_ID, intentId: STEP_ID, steps }, { signal: controller.signal })
    .result.then((r) => (result = r));
  const ended = await clock.runUntil(() => result !== undefined, job.simBudgetMs);
  const simulatedMs = clock.now();
  if (!ended) controller.abort();
  const after = await judgement(fork, job);
  await fork.close();
  const expects = events.find((event) => event.type === 'step.expects' && event.stepId === STEP_ID);
  const okOnFork = ended && result?.ok === true;
  const common = {
    expectations: expects?.type === 'step.expects' ? expects.expectations : [],
    damage,
    simulatedMs,
    unknownTouches: fork.unknownTouches,
    ...(before && after
      ? { progress: branchProgress(job.judgeBy ?? [], before, after, okOnFork), spent: itemsSpent(before, after) }
      : {}),
  };
  if (!ended || !result)
    return {
      outcome: 'sim_budget',
      detail: `still running after ${job.simBudgetMs} ms of simulated time`,
      unmet: [],
      ...common,
    };
  const record = result.steps.find((step) => step.step.stepId === STEP_ID);
  const stepEnded = events.find((event) => event.type === 'step.ended' && event.stepId === STEP_ID);
  const ttfaMs = stepEnded?.type === 'step.ended' ? stepEnded.ttfaMs : null;
  if (result.ok && record?.outcome.ok) return { outcome: 'ok', unmet: [], ttfaMs, ...common };
  const failure = record && !record.outcome.ok ? record.outcome : undefined;
  return {
    outcome: 'failed',
    code: failure?.code ?? result.code ?? 'unknown',
    detail: failure?.detail ?? result.detail ?? '',
    unmet: failure?.unmet ?? [],
    ttfaMs,
    ...common,
  };
}

/**
 * A step's `target: { id }` (a mob the bot saw, as the safety layer's fight names it) and its `judgedOn` ids (the mobs
 * the fight was judged on: another one joining it breaks it off) as the fork's ids for them.
 */
function withForkIds(fork: ForkWorld, args: Record<string, unknown>): Record<string, unknown> {
  const forkId = (id: number) => fork.forkIdOf(id) ?? id;
  const target = args.target as { id?: unknown } | undefined;
  const targeted = typeof target?.id === 'number' ? { target: { ...target, id: forkId(target.id) } } : {};
  const judged = Array.isArray(args.judgedOn) ? { judgedOn: (args.judgedOn as number[]).map(forkId) } : {};
  return { ...args, ...targeted, ...judged };
}

/** The fork observed as the job's `judgeBy` needs it, or null when the job asks for no judgement. */
async function judgement(fork: ForkWorld, job: ForkJob): Promise<Observation | null> {
  return job.judgeBy ? fork.observe(queryFor(job.judgeBy)) : null;
}

/** The fork's registry: the built-in capabilities, the job's modules, and the job's version made to act. */
async function forkRegistry(job: ForkJob): Promise<CapabilityRegistry> {
  const registry = createDefaultRegistry();
  for (const module of job.capabilityModules ?? [])
    await registerContribution(registry, (await import(pathToFileURL(module).href)) as Record<string, unknown>);
  if (job.version !== undefined && registry.canaryOf(job.verb)?.version === job.version)
    registry.promote(job.verb, job.version);
  return registry;
}
