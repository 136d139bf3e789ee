import type {
  ActionRow,
  AttemptRow,
  EffectRow,
  IncidentRow,
  PlanRevisionRow,
  PlanRow,
  RunRow,
  StepRow,
  TransitionRow,
} from './rows.js';

/** What the journal's reads return beyond single rows. */

export interface IncidentFilter {
  /** A step id or its prefix (as `git` matches hashes). */
  stepId?: string;
  planId?: string;
  unresolved?: boolean;
  limit?: number;
}

export interface RunSummary extends RunRow {
  runner_pid: number | null;
  runner_host: string | null;
  runner_status: string | null;
  plan_status: string;
  steps_total: number;
  /** The plan's own steps this run brought to success. */
  steps_succeeded: number;
  /** The plan's own steps retracted now: they had succeeded, and a server's restart undid them. */
  steps_retracted: number;
}

export interface StepProvenance {
  step: StepRow;
  transitions: TransitionRow[];
  attempts: (AttemptRow & { actions: ActionRow[] })[];
  effects: EffectRow[];
  incidents: IncidentRow[];
  /** Branch exploration for this step (issue 33): each branch tried with its score and the choice, as journaled. */
  branches: string[];
  /** Every repair of this step, in order: a recovery rung, an unstuck move, a defence ("defence: dig_in from …"). */
  repairs: StepRepair[];
}

/** One `step.repair` of a step, as journaled. */
export interface StepRepair {
  /** The executor's clock when it was made. */
  at: number;
  /** What repaired it: "defence: dig_in from 3 zombies", "leave_shelter before the step", "unstuck: …". */
  strategy: string;
  /** The failure it answered; `preempted` for a defence (safety took the step over). */
  code: string;
  detail: string;
  /** An unstuck move the capability's tree made inside an attempt. */
  inTree?: true;
}

/** The chain intent → plan → step → capability@version → action trace → effects, step by step. */
export interface PlanProvenance {
  plan: PlanRow;
  intent: { id: string; source: string | null; goal: string | null } | null;
  runs: RunRow[];
  /** Replacement steps planners sent on escalation; the adopted ones are the plan's line from there on. */
  revisions: PlanRevisionRow[];
  steps: StepProvenance[];
}

/** One tree step's node state changes, as journaled: [nodePath, state] pairs in the order they happened. */
export interface NodeStatesRow {
  id: number;
  planId: string;
  stepId: string;
  attemptId: number | null;
  tree: string;
  at: number;
  changes: [string, string][];
  /** The last executor event of the plan journaled before these changes (GET /api/runs/<planId>/events). */
  eventId: number | null;
  /** Where the bot stood, as the world held it then. */
  position: { x: number; y: number; z: number } | null;
}

export interface MeasuredSla {
  capability: string;
  runs: number;
  successes: number;
  successRate: number;
  meanTtfaMs: number | null;
  meanDurationMs: number | null;
  lastFailureCode: string | null;
}

/** What a resume reads of a plan, in one consistent read. */
export interface ResumeRecord {
  plan: PlanRow;
  steps: StepRow[];
  /** The first run of the plan's current line: its latest fresh (not resumed) run. */
  lineStartRunId: number;
  /** Its latest adopted escalation since that run, if any. */
  revision: PlanRevisionRow | undefined;
  /** Steps dispatched (moved to in_progress) during the current line of runs. */
  dispatchedInLine: string[];
}

export interface FeedEvent {
  id: number;
  planId: string;
  /** The fleet bot the plan was queued for; null for a plan a process ran directly. */
  bot: string | null;
  type: string;
  at: number;
  event: unknown;
}

export interface EventFeedPage {
  rows: FeedEvent[];
  /** Pass it back for the next page; unchanged when nothing new was safe to return. */
  cursor: string | null;
}
