import type { Clock } from '../contracts/clock.js';
import type { Random } from '../random.js';
import type { RunContext } from '../registry/capability-spec.js';
import { BackoffIntrinsic } from './backoff-intrinsic.js';
import type { BindingRegistry } from './binding-registry.js';
import { agentKey, type CompiledNode } from './compile.js';
import type { RunContextParts } from './invocation.js';
import { RoundRobinIntrinsic } from './round-robin-intrinsic.js';
import { failureOf, type RunFailures } from './run-failures.js';
import type { RunInvocations } from './run-invocations.js';
import { waitDurationMs, waitOnClock } from './wait-intrinsic.js';

/** What one run's agent functions are made from. */
export interface AgentSources {
  treeName: string;
  nodes: readonly CompiledNode[];
  bindings: BindingRegistry;
  parts: RunContextParts;
  clock: Clock;
  random: Random;
  failures: RunFailures;
  invocations: RunInvocations;
  /** How often the retry node at this index has been entered, for the backoff intrinsic. */
  retryEntry(index: number): number;
}

/** A user guard of a running node, as the fixed tick checks it. */
export interface ConditionGuard {
  index: number;
  holds: () => boolean;
}

/** Conditions and guards observe; nothing ever aborts them, so all runs share one signal. */
const NEVER_ABORTED = new AbortController().signal;

function ignoreProgress(): void {}

function isReference(arg: CompiledNode['args'][number]): arg is { $: string } {
  return typeof arg === 'object' && arg !== null;
}

/**
 * The agent mistreevous calls for one run: a function per node and role
 * (`agentKey`), so each call knows which node made it. Actions and waits poll
 * the run's invocations; conditions and guards evaluate on a context that
 * cannot actuate. Also returns the user guards in pre-order (outermost first,
 * as mistreevous evaluates a guard path), for the tick to check alone.
 */
export function buildRunAgent(sources: AgentSources): {
  agent: Record<string, () => unknown>;
  conditionGuards: ConditionGuard[];
} {
  const { nodes, bindings, failures, treeName } = sources;
  const conditionContext: RunContext = {
    args: sources.parts.args,
    world: sources.parts.world,
    signal: NEVER_ABORTED,
    clock: sources.clock,
    actuate: () => Promise.reject(new Error(`${treeName}: conditions and guards observe; they cannot actuate`)),
    progress: ignoreProgress,
  };
  const evaluate = (node: CompiledNode, condition: (ctx: RunContext) => boolean): boolean => {
    try {
      return condition(conditionContext) === true;
    } catch (error) {
      failures.record(node, failureOf(node, error));
      return false;
    }
  };
  // The tick's check has no side effect: a throw is left for the step to evaluate and record.
  const probe = (condition: (ctx: RunContext) => boolean): boolean | undefined => {
    try {
      return condition(conditionContext) === true;
    } catch {
      return undefined;
    }
  };

  const agent: Record<string, () => unknown> = {};
  const conditionGuards: ConditionGuard[] = [];
  const actionFor = actionFunctions(sources);
  for (const node of nodes) {
    if (node.type === 'action' || node.type === 'wait') agent[agentKey.leaf(node.index)] = actionFor(node);
    if (node.type === 'condition') {
      const condition = withArgs(bindings.condition(node.name!)!, node.args, sources.parts);
      agent[agentKey.leaf(node.index)] = () => evaluate(node, condition);
    }
    for (const guard of node.guards) {
      const condition = withArgs(bindings.condition(guard.call)!, guard.args, sources.parts);
      agent[guard.kind === 'while' ? agentKey.whileGuard(node.index) : agentKey.untilGuard(node.index)] = () =>
        evaluate(node, condition);
      const expected = guard.kind === 'while';
      conditionGuards.push({ index: node.index, holds: () => probe(condition) === expected });
    }
    if (node.retryableGuard) agent[agentKey.whileGuard(node.index)] = () => failures.retryableHolds(node);
  }
  return { agent, conditionGuards };
}

/** Each action or wait node's agent function; the intrinsics are made on first use, one per run. */
function actionFunctions(sources: AgentSources): (node: CompiledNode) => () => unknown {
  const { clock, random, invocations } = sources;
  let backoff: BackoffIntrinsic | undefined;
  let roundRobin: RoundRobinIntrinsic | undefined;
  return (node) => {
    let start: (ctx: RunContext) => unknown;
    if (node.type === 'wait') {
      start = (ctx) => waitOnClock(clock, ctx.signal, waitDurationMs(node.args, random));
    } else if (node.name === 'backoff') {
      const intrinsic = (backoff ??= new BackoffIntrinsic(clock, random));
      start = (ctx) =>
        intrinsic.start(node, node.retryAncestor === undefined ? 0 : sources.retryEntry(node.retryAncestor), ctx);
    } else if (node.name === 'round_robin') {
      const intrinsic = (roundRobin ??= new RoundRobinIntrinsic(sources.bindings));
      start = (ctx) => intrinsic.start(node, ctx);
    } else {
      start = withArgs(sources.bindings.action(node.name!)!, node.args, sources.parts);
    }
    return () => invocations.poll(node, start);
  };
}

/** Binds a leaf's node arguments once; only `$name` references are resolved per call. */
function withArgs<R>(
  leaf: (ctx: RunContext, ...args: unknown[]) => R,
  args: CompiledNode['args'],
  parts: RunContextParts,
): (ctx: RunContext) => R {
  if (args.length === 0) return leaf;
  if (!args.some(isReference)) return (ctx) => leaf(ctx, ...args);
  return (ctx) =>
    leaf(ctx, ...args.map((arg) => (isReference(arg) ? (parts.args as Record<string, unknown> | null)?.[arg.$] : arg)));
}
