import type { ManualClock } from '../../clock/manual-clock.js';
import { WorldError } from '../../contracts/world.js';

/** How an actuator promise ended, as plain data tests can compare. */
export type Outcome = { state: 'pending' } | { state: 'ok' } | { state: 'rejected'; code: string; message: string };

/** Tracks how a promise ended without awaiting it, so virtual time can be advanced meanwhile. */
export function track(promise: Promise<unknown>): { readonly outcome: Outcome } {
  const box: { outcome: Outcome } = { outcome: { state: 'pending' } };
  promise.then(
    () => (box.outcome = { state: 'ok' }),
    (error: unknown) =>
      (box.outcome = {
        state: 'rejected',
        code: error instanceof WorldError ? error.code : 'not_a_world_error',
        message: error instanceof Error ? error.message : String(error),
      }),
  );
  return box;
}

/** Advances virtual time until the promise settles (or `maxMs` passes) and returns how it ended. */
export async function settle(clock: ManualClock, promise: Promise<unknown>, maxMs = 120_000): Promise<Outcome> {
  const tracked = track(promise);
  await clock.advance(0);
  await clock.advanceUntil(() => tracked.outcome.state !== 'pending', maxMs, 50);
  return tracked.outcome;
}
