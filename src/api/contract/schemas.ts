import { z } from 'zod';
import { FAILURE_CODE_LIST } from '../../contracts/failure-codes.js';
import { Plan } from '../../contracts/plan.js';
import { PlanStep } from '../../contracts/plan-step.js';
import { PLAN_WAIT_REASONS } from '../../operations/bot-access.js';
import { CONTROL_ACTIONS } from '../../operations/runs.js';

/**
 * The bodies the HTTP API reads and answers, as zod schemas: the OpenAPI document is generated from them, and
 * the plan a client posts is the `Plan` schema the operations validate with. Deep parts the journal or the
 * executor shape (a health check's findings, a provenance record) are objects whose keys the document leaves open.
 */

const open = (description: string) => z.looseObject({}).describe(description);
const success = z.literal(true);

export const FailureCode = z.enum(FAILURE_CODE_LIST).describe('A failure code (verbtree failures lists them).');

export const ValidationIssue = z.looseObject({
  code: FailureCode,
  path: z.array(z.union([z.string(), z.number()])).describe("The JSON path from the plan's root."),
  where: z.string().describe('The same path as text, e.g. steps[2].args.count.'),
  message: z.string(),
  stepIndex: z.int().optional(),
  stepId: z.string().optional(),
  suggestion: z.string().optional(),
});

/** Every refusal's body: what to fix, and (by kind) the issues of a plan, the bots to pick from, the methods allowed. */
export const ErrorBody = z.strictObject({
  success: z.literal(false),
  error: z.string().describe('What was refused and how to fix it; never a stack trace.'),
  issues: z.array(ValidationIssue).optional().describe('A plan that does not validate: every issue.'),
  bots: z.array(z.string()).optional().describe('An unknown bot: the names there are.'),
  allow: z.string().optional().describe('A 405: the method the route takes (also the Allow header).'),
});

export const ExecutorEvent = z.looseObject({
  type: z.string().describe('plan.started, step.started, step.ended, plan.ended, …'),
  at: z.number().describe('Epoch milliseconds.'),
  planId: z.string(),
  stepId: z.string().optional(),
  verb: z.string().optional(),
});

const StepOutcome = z.union([
  z.looseObject({ ok: z.literal(true), deduplicated: z.boolean().optional() }),
  z.looseObject({
    ok: z.literal(false),
    code: FailureCode,
    detail: z.string(),
    unmet: z.array(z.string()).optional(),
  }),
]);

export const PlanResult = z.looseObject({
  planId: z.string(),
  ok: z.boolean().describe('True only when every step was verified against the world.'),
  code: FailureCode.optional(),
  detail: z.string().optional(),
  steps: z.array(
    z.looseObject({
      step: PlanStep,
      outcome: StepOutcome,
      attempts: z.int(),
      durationMs: z.number(),
      retries: z.int(),
      repairs: z.int(),
      defences: z.int().describe('Of `repairs`, the safety takeovers of this step that ran a response.'),
      parentStepId: z.string().optional(),
    }),
  ),
  escalations: z.int(),
  repairs: z.int(),
  defences: z
    .int()
    .describe(
      'Of `repairs`, the defences: safety takeovers of a step (a fight, a flight, a shelter, a meal), each a `step.repair` "defence: …" of the step it interrupted.',
    ),
  retries: z.int(),
  durationMs: z.number(),
});

export const RunStatus = z.enum([
  'queued',
  'running',
  'paused',
  'succeeded',
  'failed',
  'cancelled',
  'rejected',
  'interrupted',
]);

export const RunFailure = z.looseObject({
  code: z.string(),
  retryable: z.boolean(),
  detail: z.string(),
  stepId: z.string().nullable().describe("The plan's step that failed; null before or between steps."),
  unmet: z.array(z.string()).describe('The expectations acceptance found unmet.'),
  expects: z.array(z.unknown()).describe("The failed step's effects as absolute expectations."),
  evidence: z.array(ExecutorEvent).describe("The failed step's last events; empty when read from the journal."),
});

export const StepState = z
  .enum(['pending', 'running', 'in_progress', 'succeeded', 'failed', 'skipped', 'retracted'])
  .describe(
    "A step's state. `retracted`: it had succeeded, and a server restart rolled its effect back (found gone when its bot rejoined; `code` retracted, `detail` the evidence, its idempotency key released).",
  );

export const RunView = z.looseObject({
  planId: z.string(),
  bot: z.string().nullable(),
  source: z.enum(['process', 'journal']),
  status: RunStatus,
  steps: z.array(
    z.looseObject({
      stepId: z.string(),
      verb: z.string(),
      status: StepState,
      parentStepId: z.string().optional(),
      code: z.string().optional(),
      detail: z.string().optional(),
    }),
  ),
  stepsTotal: z.int(),
  failure: RunFailure.nullable(),
  result: PlanResult.nullable(),
});

const runLink = z.string().describe('GET it for the run: /api/runs/<planId>.');
const eventsLink = z.literal('/api/events').describe('The WebSocket of every event.');

export const ExecuteAccepted = z.strictObject({
  success,
  planId: z.string(),
  bot: z.string(),
  status: z.literal('accepted'),
  queued: z
    .boolean()
    .optional()
    .describe('On a fleet gateway: false when this planId was queued before (a retry queues nothing new).'),
  steps: z.int().optional().describe('How many steps the plan holds (absent when ?wait=true outlasted the wait).'),
  run: runLink,
  events: eventsLink,
});

export const ExecuteEnded = z.union([
  z.strictObject({ success: z.boolean(), planId: z.string(), bot: z.string(), result: PlanResult }),
  z
    .strictObject({ success: z.boolean(), planId: z.string(), bot: z.string(), run: RunView })
    .describe('A fleet worker ran it: its end as the shared journal holds it.'),
]);

export const ExecuteBody = Plan;

export const ControlBody = z
  .looseObject({
    reason: z.string().optional().describe('Why, as the journal records it (pause and cancel).'),
    steps: z
      .array(PlanStep)
      .optional()
      .describe(
        'replace: the steps to run instead of those not yet started, with stepIds new to the plan; [] ends it.',
      ),
  })
  .describe('Optional; an empty body is no reason.');

export const ControlAnswer = z.strictObject({
  success,
  planId: z.string(),
  action: z.enum(CONTROL_ACTIONS),
  steps: z.int().optional().describe('After a replace: how many steps now remain after the running one.'),
  escalationAnswered: z
    .literal(true)
    .optional()
    .describe("A replace that answered the plan's held failure: the new steps run instead of the failed one."),
});

export const HealthReply = z.strictObject({
  success,
  journal: z.string(),
  recovered: z.boolean(),
  health: z.looseObject({
    status: z.string(),
    lastCheck: z.string(),
    checks: z.array(z.unknown()),
    findings: z.array(z.unknown()),
    recoveryPaused: z.unknown(),
    skipped: z.unknown(),
    activeIncidents: z.unknown(),
    recentIncidents: z.unknown(),
  }),
});

const page = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject({ ...shape, next: z.string().nullable().describe('The URL of the next page; null at the end.') });

export const IncidentsReply = z.strictObject({
  success,
  journal: z.string(),
  total: z.int(),
  incidents: z.array(open('An incident as the journal holds it.')),
});
export const CapabilitiesReply = z.strictObject({
  success,
  capabilities: z.array(open('A capability with its SLA as measured.')),
});

const VersionSla = z
  .strictObject({
    verb: z.string(),
    version: z.string(),
    worldKind: z.string(),
    shadow: z.boolean().describe('true: the canary on forks, never acting; false: the real runs.'),
    runs: z.int(),
    successes: z.int(),
    successRate: z.number(),
    p95DurationMs: z.number(),
    p95TtfaMs: z.number().nullable(),
    meanDamage: z.number(),
  })
  .describe("A version's SLA on one kind of world.");
const CanaryStatus = z
  .strictObject({
    verb: z.string(),
    version: z.string().describe("The canary's version."),
    stable: z.string().describe('The stable version, which acts until the canary is promoted.'),
    promoted: z.boolean(),
    state: z.enum(['shadow', 'ready', 'promoted']),
    reason: z.string().describe('Why, by the promotion rule.'),
    sla: z.array(z.strictObject({ worldKind: z.string(), stable: VersionSla.nullable(), canary: VersionSla })),
  })
  .describe('A canary beside its stable version: their SLAs by world kind and its standing.');
export const CanariesReply = z.strictObject({ success, canaries: z.array(CanaryStatus) });

const position = z.strictObject({ x: z.number(), y: z.number(), z: z.number() });
const viewer = z.string().nullable().describe("Where the bot's 3D view is served; null for none.");
const LocalBotSample = z
  .strictObject({
    bot: z.string(),
    kind: z.string().describe('The world it acts in: mineflayer or sim.'),
    connected: z.boolean(),
    state: z.string().describe("The executor's state; away from its server, `disconnected since <time>`."),
    position: position.nullable(),
    health: z.number().nullable(),
    food: z.number().nullable(),
    plan: z.string().nullable().describe('The plan it runs or last ran.'),
    viewer,
  })
  .describe('A bot of this process and its state now (null position, health and food while it is away).');
const PlanWait = z
  .strictObject({
    planId: z.string().describe("The plan that waits: the bot's interrupted plan, else its first queued one."),
    reason: z
      .enum(PLAN_WAIT_REASONS)
      .describe(
        'no_holder: no worker holds the bot (none has headroom or capacity); no_headroom: its worker has none.',
      ),
    detail: z.string().describe('The reason in words.'),
    since: z.number().describe('Since when it waits (journal clock, epoch ms).'),
  })
  .describe("The bot's plan is queued, waiting for a worker: why, and since when.");
const FleetBotSample = z
  .strictObject({
    bot: z.string(),
    holder: z.string().nullable().describe('The worker that holds (or last held) its lease.'),
    held: z.boolean().describe('Whether that lease is live now.'),
    epoch: z.int(),
    leaseExpiresAt: z.number().nullable().describe('When the lease lapses (journal clock, epoch ms).'),
    kind: z.string().nullable(),
    connected: z.boolean(),
    state: z.string().nullable().describe("The executor's state as its holder last reported; WAITING: no headroom."),
    position: position.nullable(),
    health: z.number().nullable(),
    food: z.number().nullable(),
    reportedAt: z.number().nullable().describe('When its holder last reported it (journal clock, epoch ms).'),
    plan: z.string().nullable().describe('Its running or interrupted plan.'),
    queued: z.int().describe('Plans queued behind it.'),
    waiting: PlanWait.nullable().describe('Its plan queued for a worker, and why; null when none waits for one.'),
    viewer,
  })
  .describe("A fleet bot (on a gateway): its lease, its holder's last report, its plans and what they wait for.");
const BotSample = z.union([LocalBotSample, FleetBotSample]);
export const BotsReply = z.strictObject({ success, bots: z.array(BotSample), message: z.string().optional() });
export const BotStatusReply = z.union([
  z.strictObject({ success, attached: z.literal(false), message: z.string() }),
  z.looseObject({ success, attached: z.literal(true), name: z.string(), viewer: z.string().nullable() }),
]);
export const RunsReply = z.strictObject({ success, runs: z.array(open('A journaled run.')) });
export const ProvenanceReply = z.strictObject({
  success,
  provenance: open('intent → plan → steps → attempts → actions → effects, as journaled.'),
  page: page({ offset: z.int(), limit: z.int(), stepsTotal: z.int() }),
});
export const NodeStatesReply = z.strictObject({
  success,
  nodeStates: z.array(open('A node state change, with the event before it and where the bot stood.')),
  page: page({ after: z.int(), limit: z.int() }),
});
export const PlanEventsReply = z.strictObject({
  success,
  events: z.array(
    z.strictObject({
      id: z.int().describe('The row id: ask ?after=<id> for the events that came later.'),
      type: z.string(),
      at: z.number(),
      event: ExecutorEvent,
    }),
  ),
  page: page({ after: z.int(), limit: z.int() }),
});
export const Escalation = z
  .looseObject({
    planId: z.string(),
    stepId: z.string().describe('The step that failed past local repair.'),
    verb: z.string(),
    code: FailureCode,
    detail: z.string(),
    unmet: z.array(z.string()).describe('The expectations acceptance found unmet.'),
    evidence: z.array(ExecutorEvent).describe("The failed step's events, from its dispatch to its end."),
    completedStepIds: z.array(z.string()),
    rung: z.int().describe("1 for the plan's first escalation, 2 for the next, …"),
    nudge: z.string().optional().describe('Set when the last replacement looked like plans that already failed.'),
    deadlineAt: z.number().describe('Epoch ms: past it the hold ends, and the plan with it (escalation_exhausted).'),
  })
  .describe('A failed step held for the client to decide.');
export const EscalationReply = z.strictObject({
  success,
  planId: z.string(),
  status: RunStatus,
  escalation: Escalation.nullable(),
});
export const RunViewReply = z.strictObject({ success, run: RunView });
export const TreesReply = z.strictObject({ success, trees: z.array(z.string()) });
export const TreeReply = z.strictObject({ success, tree: open("A tree's nodes and edges, for drawing.") });
export const OpenApiReply = open('This document.');
