import { moveStep, openIncident, placeholders } from './record.js';
import { all, exec, get, type Tx } from './tx.js';

/** A success of a bot's plan that a server's rollback may have undone, as the journal holds it. */
export interface RecordedSuccess {
  planId: string;
  stepId: string;
  verb: string;
  /** The capability's version that ran it, and its arguments (JSON), as journaled. */
  version: string | null;
  args: string | null;
  /** Its expectations as journaled at its dispatch (JSON), null when it had none. */
  expectations: string | null;
  /**
   * The world at its dispatch (JSON), journaled (in its `step.expects` event) only for a capability that judges its
   * effects with an acceptance function of its own; null otherwise.
   */
  pre: string | null;
  /** When it last succeeded, by the journal's clock. */
  succeededAt: number;
  planStatus: string;
}

/** A success found gone from the live world, and what showed it. */
export interface Retraction {
  planId: string;
  stepId: string;
  evidence: string;
}

/**
 * The bot's plans' top-level successes after `since`, oldest first; with `running`, also every success of the bot's
 * plans still under way (running or interrupted), whenever it was. A plan `serve` or `mcp` ran is journaled without
 * a bot: with `runnerId`, the plans that runner ran are the bot's too.
 */
export function* successesSince(
  bot: string,
  since: number,
  running: boolean,
  runnerId?: string,
): Tx<RecordedSuccess[]> {
  const rows = yield* all<{
    plan_id: string;
    step_id: string;
    verb: string;
    capability_version: string | null;
    args: string | null;
    expectations: string | null;
    succeeded_at: number;
    plan_status: string;
  }>(
    `SELECT * FROM (
       SELECT s.plan_id, s.step_id, s.verb, s.capability_version, s.args, s.expectations, p.status AS plan_status,
         (SELECT MAX(t.at) FROM step_transitions t
           WHERE t.plan_id = s.plan_id AND t.step_id = s.step_id AND t.to_status = 'succeeded') AS succeeded_at
       FROM steps s JOIN plans p ON p.plan_id = s.plan_id
       WHERE (p.bot = ? OR EXISTS (SELECT 1 FROM runs r WHERE r.plan_id = p.plan_id AND r.runner_id = ?))
         AND s.parent_step_id IS NULL AND s.status = 'succeeded'
     ) x
     WHERE x.succeeded_at > ? OR (? = 1 AND x.plan_status IN ('running', 'interrupted'))
     ORDER BY x.succeeded_at, x.plan_id, x.step_id`,
    bot,
    runnerId ?? null,
    since,
    running ? 1 : 0,
  );
  const pre = yield* dispatchWorlds([...new Set(rows.map((r) => r.plan_id))]);
  return rows.map((r) => ({
    planId: r.plan_id,
    stepId: r.step_id,
    verb: r.verb,
    version: r.capability_version,
    args: r.args,
    expectations: r.expectations,
    pre: pre.get(`${r.plan_id}\u0000${r.step_id}`) ?? null,
    succeededAt: Number(r.succeeded_at),
    planStatus: r.plan_status,
  }));
}

/**
 * The world at dispatch of each step of these plans that journaled one (its last `step.expects` event carrying `pre`),
 * by plan and step id. Read from the events, the one record both backends keep of it.
 */
function* dispatchWorlds(planIds: readonly string[]): Tx<Map<string, string>> {
  const worlds = new Map<string, string>();
  for (const planId of planIds) {
    const events = yield* all<{ body: string }>(
      `SELECT body FROM events WHERE plan_id = ? AND type = 'step.expects' AND body LIKE '%"pre":%' ORDER BY id`,
      planId,
    );
    for (const { body } of events) {
      const event = JSON.parse(body) as { stepId: string; pre?: unknown };
      if (event.pre !== undefined) worlds.set(`${planId}\u0000${event.stepId}`, JSON.stringify(event.pre));
    }
  }
  return worlds;
}

/**
 * Moves each step to `retracted` with its evidence (a transition row, and the step's outcome), and forgets its
 * completed idempotency key, so that a retry with that key runs again instead of being honoured as done. In a plan
 * still under way, its later successes go back to pending, as a resume distrusts them: they ran on what is gone, and
 * the plan's resume checks them again in order after redoing it. A plan that had already ended gets an incident
 * (`steps_retracted`) naming its steps that no longer hold: its record says so.
 */
export function* retractSteps(retractions: readonly Retraction[], restart: string): Tx<void> {
  for (const { planId, stepId, evidence } of retractions) {
    yield* releaseCompletedKey(planId, stepId);
    yield* moveStep(planId, stepId, 'retracted', evidence, null);
    yield* exec(
      "UPDATE steps SET outcome_code = 'retracted', outcome_detail = ? WHERE plan_id = ? AND step_id = ?",
      evidence,
      planId,
      stepId,
    );
  }
  for (const planId of new Set(retractions.map((r) => r.planId))) {
    const plan = yield* get<{ status: string }>('SELECT status FROM plans WHERE plan_id = ?', planId);
    if (!plan) continue;
    const mine = retractions.filter((r) => r.planId === planId);
    if (plan.status === 'running' || plan.status === 'interrupted') yield* distrustLaterSteps(planId, mine);
    else
      yield* openIncident({
        planId,
        mode: 'steps_retracted',
        details: {
          restart,
          planStatus: plan.status,
          steps: mine.map(({ stepId, evidence }) => ({ stepId, evidence })),
        },
      });
  }
}

function* releaseCompletedKey(planId: string, stepId: string): Tx<void> {
  const row = yield* get<{ idempotency_key: string | null }>(
    'SELECT idempotency_key FROM steps WHERE plan_id = ? AND step_id = ?',
    planId,
    stepId,
  );
  if (row?.idempotency_key)
    yield* exec("DELETE FROM idempotency WHERE key = ? AND state = 'completed'", row.idempotency_key);
}

/** The plan's successes after its first retracted step go back to pending, their keys released. */
function* distrustLaterSteps(planId: string, retracted: readonly Retraction[]): Tx<void> {
  const ids = retracted.map((r) => r.stepId);
  const first = yield* get<{ step_id: string; seq: number }>(
    `SELECT step_id, seq FROM steps WHERE plan_id = ? AND step_id IN (${placeholders(ids)}) ORDER BY seq LIMIT 1`,
    planId,
    ...ids,
  );
  const later = yield* all<{ step_id: string }>(
    "SELECT step_id FROM steps WHERE plan_id = ? AND parent_step_id IS NULL AND status = 'succeeded' AND seq > ? ORDER BY seq",
    planId,
    first!.seq,
  );
  const why = `not trusted after the server restarted: it came after step ${first!.step_id}, which the restart undid`;
  for (const { step_id } of later) {
    yield* releaseCompletedKey(planId, step_id);
    yield* moveStep(planId, step_id, 'pending', why, null);
  }
}
