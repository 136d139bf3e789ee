import type { Observation, ObservationQuery } from '../contracts/world.js';
import type { AcceptanceResult, AnyCapabilitySpec, CapabilitySpec } from '../registry/capability-spec.js';
import { dispatchQuery, expectationsFor, judgeEffects } from '../registry/effects.js';
import type { z } from 'zod';

/**
 * Judges a step's effects exactly as the executor does: the capability's
 * expectations derived from `pre` and the arguments, checked against `post`,
 * and its own acceptance when it has one.
 */
export function judgeStep<Schema extends z.ZodType>(
  spec: CapabilitySpec<Schema>,
  pre: Observation,
  post: Observation,
  args: z.output<Schema>,
): AcceptanceResult {
  const any = spec as unknown as AnyCapabilitySpec;
  return judgeEffects(any, expectationsFor(any, pre, args), pre, post, args);
}

/** What the executor observes at dispatch for this capability and these arguments. */
export function dispatchQueryOf<Schema extends z.ZodType>(
  spec: CapabilitySpec<Schema>,
  args: z.output<Schema>,
): ObservationQuery {
  return dispatchQuery(spec, args);
}
