import type { z } from 'zod';
import type { ActionResult } from '../contracts/action-result.js';
import type { Clock } from '../contracts/clock.js';
import type { FailureCode } from '../contracts/failure-codes.js';
import type { PlanStepInput, SafetyLevel } from '../contracts/plan-step.js';
import type { Expectation } from '../contracts/expectation.js';
import type { ActuatorName, Observation, ObservationQuery, Vec3Like, WorldPort } from '../contracts/world.js';

/** A precondition that does not hold, in a form a sub-goal can target. */
export interface MissingPrecondition {
  /** A declarative predicate, e.g. `has_item`. */
  predicate: string;
  /** What exactly is missing, e.g. `{ item: "stick", count: 2 }`. */
  detail: Record<string, unknown>;
}

export type GuardResult = { ok: true } | { ok: false; reason: string; missing?: MissingPrecondition };

export type AcceptanceResult = { ok: true } | { ok: false; unmet: string[] };

export interface GuardContext {
  world: WorldPort;
  observation: Observation;
}

/** What a running capability sees: its arguments, the world, a cancel signal and the one actuation API. */
export interface RunContext<Args = unknown> {
  readonly args: Args;
  readonly world: WorldPort;
  readonly signal: AbortSignal;
  readonly clock: Clock;
  /** Every command that changes the world goes through here, so TTFA and no-actuator timers see it. */
  actuate<T>(command: string, act: () => Promise<T>): Promise<T>;
  /**
   * Reports measurable progress (blocks placed, distance closed): the stuck detectors judge `done` rising toward
   * `total`, and the executor passes it on, at a bounded rate, as `step.progress` events, saying what it counts.
   */
  progress(done: number, total?: number, note?: ProgressNote): void;
}

/**
 * The context with its world or its cancel signal swapped, keeping the executor's actuate and progress hooks: a
 * runner that wraps the world (a fault injected) or cancels its own moves sooner than the step (a fight's break-off).
 */
export function withContext<A>(
  ctx: RunContext<A>,
  swap: { world?: RunContext<A>['world']; signal?: AbortSignal },
): RunContext<A> {
  return {
    args: ctx.args,
    world: swap.world ?? ctx.world,
    signal: swap.signal ?? ctx.signal,
    clock: ctx.clock,
    actuate: (command, act) => ctx.actuate(command, act),
    progress: (done, total, note) => ctx.progress(done, total, note),
  };
}

/** What a progress report counts, for the people and tools watching a step. */
export interface ProgressNote {
  /** What `done` and `total` count, e.g. "oak_log", "blocks placed"; "units" when not given. */
  unit?: string;
  /** A short line saying where the step stands, e.g. "12 blocks left". */
  detail?: string;
  /**
   * false: shown to watchers but not judged by the progress detector, for a measure that may rightly fall back for a
   * while (straight-line distance on a walk around an obstacle); the position and path detectors judge such a walk.
   * Judged or not, a rising `done` counts as moving for the position detector (a fight striking from where it stands).
   */
  judged?: boolean;
}

export type Runner<Args = unknown> = (ctx: RunContext<Args>) => Promise<ActionResult>;

/** A literal argument written in a tree definition, e.g. `action [dig, "north", 2]`. */
export type LeafArgument = string | number | boolean | null;

/**
 * A tree action leaf. It receives the node's arguments: literals as written, `$name`
 * as the step argument `name`. Resolve (or return) `true`/nothing to succeed, `false`
 * to fail, throw a `WorldError` to fail with that code. It must stop its actuator when
 * `ctx.signal` fires: the node was aborted and any later result is discarded.
 */
export type TreeAction<Args = unknown> = (
  ctx: RunContext<Args>,
  ...args: unknown[]
) => Promise<boolean | void> | boolean | void;

/** A tree condition leaf or guard: synchronous, side-effect free. */
export type TreeCondition<Args = unknown> = (ctx: RunContext<Args>, ...args: unknown[]) => boolean;

/** How many arguments a leaf takes in a tree: exactly n, or from min to max. */
export type LeafArity = number | readonly [min: number, max: number];

/** The leaves a capability contributes to the binding registry, keyed by the name trees call them by. */
export interface TreeBindings<Args = unknown> {
  actions?: Record<string, TreeAction<Args>>;
  conditions?: Record<string, TreeCondition<Args>>;
  /**
   * Optional: how many arguments each leaf takes (by leaf name), so `verbtree lint` names a call
   * with the wrong number. A function's `length` cannot say it: optional and rest parameters hide it.
   */
  arity?: Readonly<Record<string, LeafArity>>;
}

export interface CapabilitySpec<Schema extends z.ZodType = z.ZodType, Name extends string = string> {
  /** The verb, e.g. "dig_block" (kept as a literal type by defineCapability, for typed plan builders). */
  name: Name;
  /** Semver, e.g. "1.2.0". */
  version: string;
  description: string;
  inputSchema: Schema;
  safetyLevel: SafetyLevel;
  expectedDurationMs: number;
  /**
   * Optional: the expected duration for these arguments when it grows with them (smelting 8 items takes
   * 80 s, one 10 s); the step's deadline and watchdog limits scale from it. Default: `expectedDurationMs`.
   * A plan step's own `expectedDurationMs` still wins.
   */
  durationFor?(args: z.output<Schema>): number;
  /** Failure codes worth a local retry for this capability. */
  retryableCodes: readonly FailureCode[];
  preconds: readonly string[];
  effects: readonly string[];
  /** Set to a reason when the version still runs but should no longer be used. */
  deprecated?: string;
  /**
   * A candidate beside the verb's stable version: it runs only in shadow, on forks of the moment the stable one acts,
   * and never acts itself until promoted (`verbtree registry promote <verb>@<version>` or the project config).
   */
  canary?: boolean;
  /** The behavior tree (trees/<tree>.mdsl) that runs the capability; without one it is not runnable in this build. */
  tree?: string;
  /**
   * The optional actuators its tree commands (e.g. `toss`); assembling against a
   * world that lacks one is refused, naming both. The core ones need no mention, except
   * `dig`: with `attack`, it tells a client (the MCP server's `destructiveHint`) that the
   * verb destroys blocks or mobs.
   */
  actuators?: readonly ActuatorName[];
  /** The capability moves the bot: arms the position and flap stuck detectors while it runs. */
  moves?: boolean;
  /** Its actuation is one transaction (e.g. a craft): preemption waits for it to end instead of cancelling it. */
  atomic?: boolean;
  /**
   * It may stand still with no command in flight for as long as it runs (following a mob that stands
   * still, guarding a spot): the no-actuator watchdog (stuck.loop) is off for it, so waiting is not taken
   * for being stuck; its deadline (give durationFor) and the state limits still hold.
   */
  idles?: boolean;
  /** It is a fight: a hostile mob nearby does not preempt it (low health, hunger and hazards still do). */
  engagesHostiles?: boolean;
  /** The action and condition leaves `tree` calls; registered by name in the runtime's BindingRegistry. */
  bindings?: TreeBindings<z.output<Schema>>;
  guard(ctx: GuardContext, args: z.output<Schema>): GuardResult;
  /**
   * The step's effects as asked, as absolute facts about the world (the pack holds at least N of X;
   * the block at P is Y; the bot stands at the goal), derived once from the world at dispatch and the
   * arguments. Acceptance checks them after each attempt against the world's truth; the journal keeps
   * them so a resume can check a step against the live world. A capability gives `expect`,
   * `acceptance`, or both (both must hold).
   */
  expect?(pre: Observation, args: z.output<Schema>): Expectation[];
  /**
   * Extra checks beyond `expect` (or the whole check, for a capability that has none): pure, pre and post observations.
   */
  acceptance?(pre: Observation, post: Observation, args: z.output<Schema>): AcceptanceResult;
  /**
   * What the world must show at dispatch for `expect`/`acceptance`: block positions, or a query that also asks for
   * dropped items.
   */
  observes?(args: z.output<Schema>): readonly Vec3Like[] | ObservationQuery;
  /** Steps that would make a missing precondition hold; null when it cannot be satisfied locally. */
  subgoals?(missing: MissingPrecondition, args: z.output<Schema>, ctx: GuardContext): PlanStepInput[] | null;
}

/** Keeps the schema's type flowing into guard, acceptance and runner. */
export function defineCapability<Schema extends z.ZodType, const Name extends string = string>(
  spec: CapabilitySpec<Schema, Name>,
): CapabilitySpec<Schema, Name> {
  return spec;
}

export type AnyCapabilitySpec = CapabilitySpec<z.ZodType>;
