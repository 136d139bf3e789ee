import type { Expectation } from '../contracts/expectation.js';

// The executor's async idempotency ledger, in the shape src/executor/idempotency.ts takes on the executor's branch
// (the lead reconciles the two at merge: these are then imported from there).

export type IdempotencyState = 'in_flight' | 'completed';

export interface IdempotencyClaim {
  key: string;
  planId: string;
  stepId: string;
  verb: string;
  args: unknown;
}

export interface IdempotencyHolder {
  planId: string;
  stepId: string;
  verb: string;
  args: unknown;
  state: IdempotencyState;
  expectations?: Expectation[];
}

export type ClaimAnswer = { claimed: true } | { claimed: false; holder: IdempotencyHolder };

export interface IdempotencyLedger {
  claim(claim: IdempotencyClaim): Promise<ClaimAnswer>;
  complete(key: string, expectations: readonly Expectation[]): Promise<void>;
  release(key: string): Promise<void>;
}
