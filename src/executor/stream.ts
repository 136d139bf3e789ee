import { EventEmitter } from 'eventemitter3';
import type { Clock } from '../contracts/clock.js';
import type { WorldPort } from '../contracts/world.js';
import { systemClock } from '../clock/system-clock.js';
import { AgentStateMachine } from '../recovery/agent-state-machine.js';
import type { RecoveryConfigInput } from '../recovery/config.js';
import type { BranchExplorer } from '../recovery/branches.js';
import { RecoveryLadder } from '../recovery/recovery-ladder.js';
import { mulberry32 } from '../random.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { type StuckDetectionConfigInput, StuckDetectionConfigSchema } from '../stuck/config.js';
import { HeartbeatWatcher } from '../stuck/heartbeat-watcher.js';
import { StuckFleet } from '../stuck/stuck-fleet.js';
import type { StuckMonitor } from '../stuck/stuck-monitor.js';
import type { ExecutorEvent } from './events.js';
import { type IdempotencyLedger, IdempotencyStore } from './idempotency.js';
import { InterruptQueue } from './interrupts.js';
import type { StepInvoker } from './invoker.js';
import { ExecutionMetrics } from './metrics.js';
import type { Planner } from './planner.js';
import { ExecutorPolicy, type ExecutorPolicyInput } from './policy.js';
import { SafetyMonitor } from './safety/index.js';

export interface ExecutorOptions {
  registry: CapabilityRegistry;
  world: WorldPort;
  /** Runs one attempt of a capability (normally the behavior-tree runtime). */
  invoker: StepInvoker;
  clock?: Clock;
  /** One planner, or several ordered weakest to strongest for the escalation ladder. */
  planner?: Planner | readonly Planner[];
  policy?: ExecutorPolicyInput;
  stuck?: StuckDetectionConfigInput;
  /**
   * The recovery ladder's strategies and budgets; its own retry rung stays off, as local retries come first
   * (A3 in docs/contract.md).
   */
  recovery?: RecoveryConfigInput;
  /** Tries ways out of a stuck step on forks (verbtree/sim's forkExplorer), when `recovery.branches.enabled`. */
  explorer?: BranchExplorer;
  /** Share one ledger between executors (in memory, or journaled) so a key is never dispatched twice. */
  idempotency?: IdempotencyLedger;
  /** What must be durable before the executor acts: flush() resolves once every event emitted so far is durably journaled, and rejects when it cannot be (the journal is unreachable, or this process lost its lease). */
  durability?: { flush(): Promise<void> };
}

export interface ExecutorEventMap {
  event: [ExecutorEvent];
}

/** What one executor keeps across its runs: one stream (bot), whose runs take turns (I1). */
export interface Stream {
  readonly options: ExecutorOptions;
  readonly clock: Clock;
  readonly policy: ExecutorPolicy;
  /** Ordered weakest to strongest. */
  readonly planners: readonly Planner[];
  readonly events: EventEmitter<ExecutorEventMap>;
  readonly metrics: ExecutionMetrics;
  readonly idempotency: IdempotencyLedger;
  readonly stuck: StuckMonitor;
  readonly safety: SafetyMonitor;
  readonly random: () => number;
  readonly agent: AgentStateMachine;
  readonly heartbeat: HeartbeatWatcher;
  readonly ladder: RecoveryLadder;
  /** Urgent intents (and pauses) waiting to preempt the running step. */
  readonly interrupts: InterruptQueue;
  /** The runs so far, each started after the one before it ended. */
  queue: Promise<unknown>;
  activeRuns: number;
  /** Where the heartbeat watcher reports a stopped supervision tick: the running plan's incident. */
  onZombie: (detail: string) => void;
}

export function openStream(options: ExecutorOptions): Stream {
  const clock = options.clock ?? systemClock;
  const policy = ExecutorPolicy.parse(options.policy ?? {});
  const planners: readonly Planner[] = [options.planner ?? []].flat();
  const stream: Stream = {
    options,
    clock,
    policy,
    planners,
    events: new EventEmitter<ExecutorEventMap>(),
    metrics: new ExecutionMetrics(),
    idempotency: options.idempotency ?? new IdempotencyStore(),
    stuck: StuckFleet.for({
      tickMs: 1000 / policy.tickHz,
      noActuator: { limitMs: policy.noActuatorMs },
      ...options.stuck,
    }).monitor(clock),
    safety: new SafetyMonitor(policy.safety, options.world),
    random: mulberry32(policy.seed),
    agent: new AgentStateMachine({ clock }),
    heartbeat: new HeartbeatWatcher(
      clock,
      StuckDetectionConfigSchema.parse(options.stuck ?? {}).heartbeat,
      (detection) => stream.onZombie(detection.reason),
    ),
    ladder: recoveryLadder(clock, options.recovery),
    interrupts: new InterruptQueue(),
    queue: Promise.resolve(),
    activeRuns: 0,
    onZombie: () => {},
  };
  return stream;
}

/** The stream's recovery ladder, its own retry rung off: local retries come first (A3). */
function recoveryLadder(clock: Clock, recovery: RecoveryConfigInput | undefined): RecoveryLadder {
  return new RecoveryLadder({
    clock,
    config: {
      ...recovery,
      strategies: { ...recovery?.strategies, retry: { ...recovery?.strategies?.retry, enabled: false } },
    },
  });
}
