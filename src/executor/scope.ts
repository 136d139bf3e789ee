import type { Clock } from '../contracts/clock.js';
import type { WorldPort } from '../contracts/world.js';
import type { AgentState, AgentStateMachine } from '../recovery/agent-state-machine.js';
import type { BranchExplorer } from '../recovery/branches.js';
import type { RecoveryLadder } from '../recovery/recovery-ladder.js';
import type { HeartbeatWatcher } from '../stuck/heartbeat-watcher.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import type { StuckMonitor } from '../stuck/stuck-monitor.js';
import type { RunDeaths } from './deaths.js';
import type { Durability } from './durability.js';
import type { ExecutorEvent, StepOutcome, StepRecord } from './events.js';
import type { IdempotencyLedger } from './idempotency.js';
import type { InterruptQueue } from './interrupts.js';
import type { Planner } from './planner.js';
import type { StepInvoker } from './invoker.js';
import type { ExecutionMetrics } from './metrics.js';
import type { ExecutorPolicy } from './policy.js';
import type { SafetyMonitor } from './safety/index.js';
import type { StepRunner } from './step-input.js';

export type RunFailure = Extract<StepOutcome, { ok: false }>;

/** Everything a running plan shares between its steps; one per stream. */
export interface RunScope {
  planId: string;
  registry: CapabilityRegistry;
  world: WorldPort;
  clock: Clock;
  policy: ExecutorPolicy;
  invoker: StepInvoker;
  metrics: ExecutionMetrics;
  idempotency: IdempotencyLedger;
  stuck: StuckMonitor;
  safety: SafetyMonitor;
  /** The stream's recovery ladder: repair rungs between local retries and escalation, within its budgets. */
  ladder: RecoveryLadder;
  /** Tries ways out of a stuck step on forks, when the recovery config's `branches` stage is on. */
  explorer: BranchExplorer | undefined;
  /** The stream's planners, weakest first: those with `proposeAlternatives` add branches. */
  planners: readonly Planner[];
  /** The agent's state (IDLE, PLANNING, EXECUTING, RECOVERING, …), transitions enforced. */
  agent: AgentStateMachine;
  /** Watches the supervision tick from outside it: a stopped tick is a zombie. */
  heartbeat: HeartbeatWatcher;
  /** Urgent intents waiting to preempt the running step. */
  interrupts: InterruptQueue;
  random: () => number;
  /** Cancels the whole run (the caller's signal, executor shutdown, or a halt). */
  signal: AbortSignal;
  /** What must be durable before the executor acts: before each attempt's first actuator command, after each `step.ended`. */
  durability: Durability | undefined;
  /** Set when the run was halted (the journal lost): the failure every step still running ends with. */
  halted: RunFailure | null;
  /** Ends the run at once (its signal fires) with this failure: no further step starts. The first halt wins. */
  halt(failure: RunFailure): void;
  emit(event: ExecutorEvent): void;
  /** Runs a nested step (a sub-goal, an unstuck move, a safety response) through the step executor. */
  runStep: StepRunner;
  /** The bot's deaths during this run: a step whose run spans one ends `died` (deaths.ts). */
  deaths: RunDeaths;
  /** Every step this run dispatched, nested ones included, in the order they ended. */
  dispatched: StepRecord[];
  /** How often each nested step id was handed out, so a repeated sub-goal or repair gets a new id (`#2`). */
  nestedIds: Map<string, number>;
}

/** A step id no earlier dispatch of this run used: one id names one dispatch in events, the journal and the result. */
export function nestedStepId(scope: Pick<RunScope, 'nestedIds'>, id: string): string {
  const uses = (scope.nestedIds.get(id) ?? 0) + 1;
  scope.nestedIds.set(id, uses);
  return uses === 1 ? id : `${id}#${uses}`;
}

/** Resolves after `ms` of the scope's clock, or at once when the run is cancelled. */
export function sleep(scope: Pick<RunScope, 'clock' | 'signal'>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (scope.signal.aborted) return resolve();
    const onAbort = () => {
      scope.clock.clearTimeout(timer);
      resolve();
    };
    const timer = scope.clock.setTimeout(() => {
      scope.signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    scope.signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Moves the agent's state machine when the move is valid from where it is, and says so as an event. */
export function moveAgent(
  scope: Pick<RunScope, 'agent' | 'emit' | 'planId' | 'clock'>,
  to: AgentState,
  reason: string,
): void {
  if (scope.agent.state === to || !scope.agent.canTransition(to)) return;
  const { from } = scope.agent.transition(to, reason);
  scope.emit({ type: 'agent.state', at: scope.clock.now(), planId: scope.planId, from, to, reason });
}

/** A new run starts from IDLE, whatever the last one ended in (COMPLETED or FAILED), then moves on to `to`. */
export function beginRunAs(
  scope: Pick<RunScope, 'agent' | 'emit' | 'planId' | 'clock'>,
  to: 'PLANNING' | 'EXECUTING',
  reason: string,
): void {
  if (scope.agent.state === 'COMPLETED' || scope.agent.state === 'FAILED') moveAgent(scope, 'IDLE', 'new run');
  moveAgent(scope, to, reason);
}

/** How a step or an attempt ends once the run's signal fired: the halt's failure when it was halted, else `aborted`. */
export function cancelledOutcome(scope: Pick<RunScope, 'halted'>): RunFailure {
  return scope.halted ?? { ok: false, code: 'aborted', detail: 'the run was cancelled' };
}
