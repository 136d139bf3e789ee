import { Expectations, queryFor, unmetExpectations } from '../contracts/expectation.js';
import type { Observation, WorldPort } from '../contracts/world.js';
import { callJudge } from '../executor/user-code.js';
import { verdictQuery } from '../registry/effects.js';
import type { AnyCapabilitySpec } from '../registry/capability-spec.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import type { RecordedSuccess } from './sql/retract.js';

/**
 * What of a recorded success the live world no longer holds, null when it holds it all. Where the capability's version
 * that ran the step is registered, its own verification runs again, as the step's acceptance ran it (the observation
 * it asks for, its expectations and its acceptance function, with the world at dispatch the journal kept); where it is
 * not, the journaled expectations are checked alone, and the answer says so.
 */
export async function goneNow(
  world: WorldPort,
  success: RecordedSuccess,
  registry?: CapabilityRegistry,
): Promise<string | null> {
  const spec = registry?.versions(success.verb).find((s) => s.version === success.version);
  if (spec) return acceptanceGone(world, success, spec);
  const fallback = `checked by its journaled expectations: ${success.verb}@${success.version ?? '?'} is not registered here`;
  const expectations = parsedExpectations(success);
  if (expectations === null) return 'its journaled expectations do not parse';
  if (expectations.length === 0) return 'it journaled no expectations to confirm it by';
  const unmet = unmetExpectations(expectations, await world.observe(queryFor(expectations)));
  return unmet.length === 0 ? null : `not in the live world: ${unmet.join('; ')} (${fallback})`;
}

/** The capability's own acceptance, run again against the live world. */
async function acceptanceGone(
  world: WorldPort,
  success: RecordedSuccess,
  spec: AnyCapabilitySpec,
): Promise<string | null> {
  const by = `${spec.name}@${spec.version}'s acceptance`;
  const expectations = parsedExpectations(success);
  if (expectations === null) return 'its journaled expectations do not parse';
  if (expectations.length === 0 && !spec.acceptance) return 'it journaled no expectations to confirm it by';
  const pre = success.pre === null ? null : (JSON.parse(success.pre) as Observation);
  if (spec.acceptance && pre === null)
    return `${by} needs the world at its dispatch, which the journal did not keep: it cannot be confirmed`;
  const args = journaledArgs(spec, success.args);
  const post = await world.observe(verdictQuery(spec, args, expectations));
  const verdict = callJudge(spec, expectations, pre ?? post, post, args);
  if (!verdict.ok) return `${by} could not judge it: ${verdict.detail}`;
  return verdict.value.ok ? null : `not in the live world, by ${by}: ${verdict.value.unmet.join('; ')}`;
}

function parsedExpectations(success: RecordedSuccess) {
  const parsed = Expectations.safeParse(JSON.parse(success.expectations ?? '[]'));
  return parsed.success ? parsed.data : null;
}

/** The step's arguments as its capability reads them (parsed by its schema, as they were when it ran). */
function journaledArgs(spec: AnyCapabilitySpec, journaled: string | null): unknown {
  const raw: unknown = journaled === null ? {} : JSON.parse(journaled);
  const parsed = spec.inputSchema.safeParse(raw);
  return parsed.success ? parsed.data : raw;
}
