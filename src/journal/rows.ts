import type { PlanControl } from './sql/plan-control.js';

/** The journal's rows as the queries return them (snake_case, as stored; times in epoch ms). */

/** `retracted`: it succeeded, and a server's rollback undid its effect (found gone from the live world since). */
export type StepStatus = 'pending' | 'in_progress' | 'succeeded' | 'failed' | 'skipped' | 'retracted';
export type RunnerStatus = 'running' | 'stopped' | 'dead' | 'zombie';

/**
 * The runner kind of a fleet worker: its id is its node id and its leases' holder, and health checks judge it by its
 * heartbeat and leases, never by a pid (a worker may run on another machine, or in another pid namespace of this one).
 */
export const WORKER_RUNNER_KIND = 'worker';

export interface PlanRow {
  plan_id: string;
  intent_id: string | null;
  body: string | null;
  world: string | null;
  status: string;
  created_at: number;
  updated_at: number;
  /** The fleet bot it was queued for; null for a plan a process ran directly. */
  bot: string | null;
}

export interface RunnerRow {
  id: string;
  pid: number;
  host: string;
  kind: string;
  status: RunnerStatus;
  started_at: number;
  last_heartbeat: number;
  stopped_at: number | null;
}

export interface RunRow {
  id: number;
  plan_id: string;
  runner_id: string | null;
  resumed: number;
  started_at: number;
  ended_at: number | null;
  ok: number | null;
  code: string | null;
  detail: string | null;
  /** The bot lease epoch a fleet worker ran it under; null for a run outside the fleet. */
  epoch: number | null;
  /** When it was cancelled (its plan.cancelled); a run that then ended not ok ended cancelled. */
  cancelled_at: number | null;
}

export interface StepRow {
  plan_id: string;
  step_id: string;
  parent_step_id: string | null;
  seq: number;
  verb: string;
  capability_version: string | null;
  args: string | null;
  idempotency_key: string | null;
  status: StepStatus;
  failure_count: number;
  attempts: number;
  run_id: number | null;
  deadline_at: number | null;
  /**
   * The step's effects as absolute facts (JSON Expectation[]), journaled at its latest dispatch; null before it or when
   * it has none.
   */
  expectations: string | null;
  ttfa_ms: number | null;
  duration_ms: number | null;
  outcome_code: string | null;
  outcome_detail: string | null;
  updated_at: number;
}

export interface TransitionRow {
  id: number;
  plan_id: string;
  step_id: string;
  run_id: number | null;
  from_status: StepStatus | null;
  to_status: StepStatus;
  at: number;
  reason: string | null;
}

export interface AttemptRow {
  id: number;
  plan_id: string;
  step_id: string;
  run_id: number | null;
  number: number;
  started_at: number;
  ended_at: number | null;
  outcome: string | null;
  detail: string | null;
  last_actuator_at: number | null;
}

export interface ActionRow {
  id: number;
  attempt_id: number | null;
  plan_id: string;
  step_id: string;
  command: string;
  args: string | null;
  started_at: number;
  settled_at: number | null;
  error: string | null;
}

export interface EffectRow {
  id: number;
  plan_id: string;
  step_id: string;
  run_id: number | null;
  at: number;
  post: string;
  blocks: string;
}

export interface IncidentRow {
  id: number;
  plan_id: string | null;
  step_id: string | null;
  runner_id: string | null;
  attempt_id: number | null;
  failure_mode: string;
  detected_at: number;
  resolved_at: number | null;
  resolution: string | null;
  details: string | null;
}

export interface CapabilitySlaRow {
  capability: string;
  runs: number;
  successes: number;
  ttfa_sum: number;
  ttfa_count: number;
  duration_sum: number;
  last_failure_code: string | null;
  last_failure_at: number | null;
  updated_at: number;
}

export interface PlanRevisionRow {
  id: number;
  plan_id: string;
  rung: number;
  planner: string;
  failed_step_id: string;
  /** The planner's replacement steps as it sent them (JSON). */
  steps: string;
  created_at: number;
  /** Set when the executor started the first of these steps: the plan's line continued here. */
  adopted_at: number | null;
  run_id: number | null;
}

export interface PlanLeaseRow {
  plan_id: string;
  /** Which acquisition holds it: a renewal or release by any other is refused. */
  token: string;
  pid: number;
  host: string;
  kind: string;
  acquired_at: number;
  heartbeat_at: number;
}

export interface IdempotencyRow {
  key: string;
  plan_id: string | null;
  step_id: string | null;
  verb: string | null;
  /** The claimant's arguments (JSON). */
  args: string | null;
  state: 'in_flight' | 'completed';
  /** The step's expectations when it completed (JSON Expectation[]). */
  expectations: string | null;
  runner_id: string | null;
  claimed_at: number | null;
  completed_at: number | null;
}

/** A claim on a bot: writes made under it hold only while the bot's lease still carries its epoch. */
export interface Fence {
  bot: string;
  epoch: number;
}

/** A fleet bot with its lease as the database's clock judges it now. */
export interface BotView {
  name: string;
  addedAt: number;
  /** What a worker needs to connect it, as added (JSON-parsed); null when nothing beyond its name. */
  settings: unknown;
  holder: string | null;
  epoch: number;
  /** When the lease lapses (journal clock, epoch ms); null when never claimed or released. */
  expiresAt: number | null;
  /** When its holder (or the last one) claimed it (journal clock, epoch ms); null when never claimed. */
  claimedAt: number | null;
  held: boolean;
  /** Its running (or interrupted) plan, if any. */
  plan: string | null;
  /** When that plan last changed status (journal clock, epoch ms): when it started, or was interrupted. */
  planSince: number | null;
  queued: number;
  /** The first of its queued plans, the one its holder takes next, and when it was queued (journal clock, epoch ms). */
  nextQueued: { planId: string; queuedAt: number } | null;
  /** What its holder last reported of it under the current lease; null before any report (or from an older lease). */
  status: BotStatus | null;
}

/** What a worker says of a bot it holds, as its world and executor stand now (`reportBots`). */
export interface BotReport {
  bot: string;
  /** The epoch of the lease the worker holds it under: a report from an older lease never replaces a newer one. */
  epoch: number;
  connected: boolean;
  /** The executor's agent state: IDLE, PLANNING, EXECUTING, RECOVERING, PAUSED, COMPLETED or FAILED. */
  state: string;
  /** The world it acts in (the WorldPort's kind: mineflayer, sim). */
  kind: string;
  position: { x: number; y: number; z: number } | null;
  health: number | null;
  food: number | null;
}

/**
 * The state a worker reports for a bot whose queued plan waits for the worker's headroom (an overloaded worker starts
 * no more plans until it has room again; issue 34).
 */
export const WAITING_FOR_HEADROOM = 'WAITING';

/** A bot's last report, with when the journal received it (journal clock, epoch ms). */
export type BotStatus = Omit<BotReport, 'bot' | 'epoch'> & { reportedAt: number };

export type EnqueueAnswer =
  | { queued: true }
  | { queued: false; existing: { bot: string | null; status: string } }
  | { queued: false; unknownBot: true; bots: string[] };

export interface QueuedPlan {
  planId: string;
  intentId: string | null;
  body: unknown;
  /** True for the bot's plan a previous holder left running or interrupted: it continues through a resume. */
  resume: boolean;
  /** What an operator asked of the plan through a gateway, as the claim read it. */
  control: PlanControl;
}
