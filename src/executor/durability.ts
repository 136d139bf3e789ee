import type { StepOutcome } from './events.js';
import { errorText } from './user-code.js';

type Failure = Extract<StepOutcome, { ok: false }>;

/**
 * What must be durable before the executor acts: `flush()` resolves once every
 * event emitted so far is durably journaled, and rejects when it cannot be (the
 * journal is unreachable, or this process lost its lease).
 */
export interface Durability {
  flush(): Promise<void>;
}

/** Awaits the flush of what was just emitted (`what` names it in a failure): null once durable, else the failure the run ends with. */
export async function flushed(durability: Durability, what: string, consequence: string): Promise<Failure | null> {
  try {
    await durability.flush();
    return null;
  } catch (error) {
    return durabilityFailure(error, what, consequence);
  }
}

/**
 * A write that could not be made durable: `lease_lost` when the error says this
 * worker lost its lease (its `code`), `journal_unavailable` for anything else.
 */
export function durabilityFailure(error: unknown, what: string, consequence: string): Failure {
  const leaseLost = (error as { code?: unknown } | null)?.code === 'lease_lost';
  return leaseLost
    ? {
        ok: false,
        code: 'lease_lost',
        detail: `this worker lost its lease on the bot while recording ${what} (${errorText(error)}): ${consequence}`,
      }
    : {
        ok: false,
        code: 'journal_unavailable',
        detail: `the journal could not record ${what} durably (${errorText(error)}): ${consequence}`,
      };
}
