import type { FailureCode } from '../contracts/failure-codes.js';
import { WorldError, type Observation, type ObservationQuery } from '../contracts/world.js';
import type { RunScope } from './scope.js';
import { errorText } from './user-code.js';

export type Observed = { ok: true; observation: Observation } | { ok: false; code: FailureCode; detail: string };

/**
 * Reads the world's truth within the policy's limit. A world that does not
 * answer is named for what it is (`world_unresponsive`), not mistaken for
 * missing effects; one that refuses says why with its own code.
 */
export function observeWithin(
  scope: Pick<RunScope, 'world' | 'clock' | 'policy'>,
  query: ObservationQuery,
  purpose: string,
): Promise<Observed> {
  const limitMs = scope.policy.observeTimeoutMs;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: Observed) => {
      if (settled) return;
      settled = true;
      scope.clock.clearTimeout(timer);
      resolve(value);
    };
    const timer = scope.clock.setTimeout(
      () =>
        settle({
          ok: false,
          code: 'world_unresponsive',
          detail: `the world did not answer an observation (${purpose}) within ${limitMs} ms: the server stopped answering`,
        }),
      limitMs,
    );
    let pending: Promise<Observation>;
    try {
      pending = scope.world.observe(query);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (observation) => settle({ ok: true, observation }),
      (error: unknown) =>
        settle({
          ok: false,
          code: error instanceof WorldError ? error.code : 'world_unresponsive',
          detail: `observing the world (${purpose}) failed: ${errorText(error)}`,
        }),
    );
  });
}
