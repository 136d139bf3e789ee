import type { Expectation } from '../../contracts/expectation.js';
import type { ClaimAnswer, IdempotencyClaim, IdempotencyHolder } from '../../executor/idempotency.js';
import type { IdempotencyRow } from '../rows.js';
import { all, exec, get, json, run, type Tx } from './tx.js';

/** A claim loses to its holder only while that holder's row stands; a holder released meanwhile is claimed over. */
const CLAIM_TRIES = 3;

/**
 * Claims an idempotency key in one statement: of two processes claiming at once, the database lets exactly one
 * insert the row (on PostgreSQL the second waits for the first to commit, then finds its row). The loser learns
 * who holds it, in flight or completed.
 */
export function* claimKey(claim: IdempotencyClaim & { runnerId: string | null }): Tx<ClaimAnswer> {
  for (let tries = 0; tries < CLAIM_TRIES; tries++) {
    const inserted = yield* run(
      "INSERT INTO idempotency (key, plan_id, step_id, verb, args, state, runner_id, claimed_at) VALUES (?, ?, ?, ?, ?, 'in_flight', ?, verbtree_now()) ON CONFLICT DO NOTHING",
      claim.key,
      claim.planId,
      claim.stepId,
      claim.verb,
      json(claim.args ?? null),
      claim.runnerId,
    );
    if (inserted > 0) return { claimed: true };
    const row = yield* get<IdempotencyRow>('SELECT * FROM idempotency WHERE key = ?', claim.key);
    if (row) return { claimed: false, holder: holderOf(row) };
  }
  throw new Error(`idempotency key "${claim.key}" was claimed and released ${CLAIM_TRIES} times while this claim ran`);
}

function holderOf(row: IdempotencyRow): IdempotencyHolder {
  return {
    planId: row.plan_id ?? '',
    stepId: row.step_id ?? '',
    verb: row.verb ?? '',
    args: row.args === null ? null : (JSON.parse(row.args) as unknown),
    state: row.state,
    ...(row.expectations ? { expectations: JSON.parse(row.expectations) as Expectation[] } : {}),
  };
}

/** The key's step succeeded: it stays completed, with the holder's identity and the effects its step had. */
export function* completeKey(key: string, expectations: readonly Expectation[]): Tx<void> {
  yield* exec(
    "UPDATE idempotency SET state = 'completed', expectations = ?, completed_at = verbtree_now() WHERE key = ?",
    JSON.stringify(expectations),
    key,
  );
}

/** A failed step gives its key back, so a later, repaired dispatch may claim it; a completed key stays. */
export function* releaseKey(key: string): Tx<void> {
  yield* exec("DELETE FROM idempotency WHERE key = ? AND state = 'in_flight'", key);
}

export function* completedKeys(): Tx<string[]> {
  return (yield* all<{ key: string }>("SELECT key FROM idempotency WHERE state = 'completed'")).map((r) => r.key);
}

export function* keyCompleted(key: string): Tx<boolean> {
  return (
    (yield* get<{ key: string }>("SELECT key FROM idempotency WHERE key = ? AND state = 'completed'", key)) !==
    undefined
  );
}

/** In-flight claims whose process is dead or stopped: nobody will complete or release them. The number released. */
export function* releaseClaimsOfGoneRunners(): Tx<number> {
  return yield* run(
    "DELETE FROM idempotency WHERE state = 'in_flight' AND runner_id IN (SELECT id FROM runners WHERE status IN ('dead', 'stopped'))",
  );
}
