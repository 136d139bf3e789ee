import { queryFor, unmetExpectations, type Expectation } from '../contracts/expectation.js';
import type { Observation, ObservationQuery } from '../contracts/world.js';
import type { AcceptanceResult, AnyCapabilitySpec } from './capability-spec.js';

/** The observation a capability asks for at dispatch (`observes`), as a query. */
export function dispatchQuery(spec: AnyCapabilitySpec, args: unknown): ObservationQuery {
  const asked = spec.observes?.(args);
  if (!asked) return {};
  return Array.isArray(asked) ? { blocks: asked } : (asked as ObservationQuery);
}

/** What to observe after an attempt: what the capability asks for, and what its expectations name. */
export function verdictQuery(
  spec: AnyCapabilitySpec,
  args: unknown,
  expectations: readonly Expectation[],
): ObservationQuery {
  return queryFor(expectations, dispatchQuery(spec, args));
}

/** A capability's expectations for a step, derived from the world at dispatch and the arguments as asked. */
export function expectationsFor(spec: AnyCapabilitySpec, pre: Observation, args: unknown): Expectation[] {
  return spec.expect?.(pre, args) ?? [];
}

/**
 * Judges a step's effects against one observation of the world: every
 * expectation must hold, and the capability's own acceptance, when it has one.
 */
export function judgeEffects(
  spec: AnyCapabilitySpec,
  expectations: readonly Expectation[],
  pre: Observation,
  post: Observation,
  args: unknown,
): AcceptanceResult {
  const unmet = unmetExpectations(expectations, post);
  if (spec.acceptance) {
    const verdict = spec.acceptance(pre, post, args);
    if (!verdict.ok) unmet.push(...verdict.unmet);
  }
  return unmet.length === 0 ? { ok: true } : { ok: false, unmet };
}

/** True when a step's effects can be checked against a live world from its journaled expectations alone. */
export function verifiableFromExpectations(spec: AnyCapabilitySpec): boolean {
  return spec.expect !== undefined && spec.acceptance === undefined;
}
