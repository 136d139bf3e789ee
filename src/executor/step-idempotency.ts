import { isDeepStrictEqual } from 'node:util';
import { unmetExpectations, type Expectation } from '../contracts/expectation.js';
import type { FailureCode } from '../contracts/failure-codes.js';
import type { AnyCapabilitySpec } from '../registry/capability-spec.js';
import { verdictQuery } from '../registry/effects.js';
import type { KeyHolder } from './events.js';
import { durabilityFailure } from './durability.js';
import type { ClaimAnswer, IdempotencyHolder } from './idempotency.js';
import { observeWithin } from './observe.js';
import { fail, finish, GO_ON, type Next, type StepState } from './step-state.js';

/** A refusal's detail names this many unmet expectations; the outcome's `unmet` lists them all. */
const LISTED_UNMET = 5;
/** Arguments in a refusal's detail are cut to this many characters. */
const ARGS_SHOWN = 200;

/**
 * Phase 2, before anything else happens (no `step.started`, no observation, no
 * guard): a step with an idempotency key claims it. A key held by a step that
 * asked for something else (another verb, or other arguments as parsed), or
 * still in flight, fails the step `duplicate_dispatch` naming the holder. A key
 * completed by the very same step counts as done only when that step's
 * expectations hold in the live world now; otherwise the step fails naming the
 * unmet ones.
 */
export async function claimKey(state: StepState): Promise<Next> {
  const key = state.input.step.idempotencyKey;
  if (!key) return GO_ON;
  const { scope, input, base } = state;
  let answer: ClaimAnswer;
  try {
    answer = await scope.idempotency.claim({ key, ...base, args: input.args });
  } catch (error) {
    // The claim is the step's first durable write: without it, nothing may start.
    const what = `the claim of idempotency key "${key}" for ${base.stepId}`;
    const unrecorded = durabilityFailure(error, what, 'the step did not start');
    scope.halt(unrecorded);
    return finish(unrecorded);
  }
  if (answer.claimed) {
    state.claimedKey = key;
    return GO_ON;
  }
  const { holder } = answer;
  const held = `idempotency key "${key}" is held by ${describeHolder(holder)}`;
  if (!sameStep(holder, base.verb, input.args))
    return refuse(
      state,
      key,
      holder,
      'duplicate_dispatch',
      `${held}, which asked for something else than ${describeStep(base.verb, input.args)}: give this step a key of its own`,
    );
  if (holder.state === 'in_flight') return refuse(state, key, holder, 'duplicate_dispatch', `${held}, still in flight`);
  return verifyDone(state, key, holder);
}

/** The holder completed this very step: done only if its expectations, checked as acceptance checks them, hold now. */
async function verifyDone(state: StepState, key: string, holder: IdempotencyHolder): Promise<Next> {
  const { scope, input, base } = state;
  const done = `idempotency key "${key}" was completed by ${describeHolder(holder)}`;
  const checkable = checkableEffects(holder, input.spec);
  if (!checkable.ok)
    return refuse(
      state,
      key,
      holder,
      'duplicate_dispatch',
      `${done}, but its effects cannot be checked against the world now (${checkable.why}): it is not counted as done`,
    );
  const { expectations } = checkable;
  const query = verdictQuery(input.spec, input.args, expectations);
  const observed = await observeWithin(scope, query, `to check the effects of idempotency key "${key}"`);
  if (!observed.ok) return refuse(state, key, holder, observed.code, observed.detail);
  const unmet = unmetExpectations(expectations, observed.observation);
  if (unmet.length > 0) {
    const listed =
      unmet.length > LISTED_UNMET
        ? [...unmet.slice(0, LISTED_UNMET), `and ${unmet.length - LISTED_UNMET} more`]
        : unmet;
    return refuse(
      state,
      key,
      holder,
      'duplicate_dispatch',
      `${done}, but its effects no longer hold: ${listed.join('; ')}`,
      unmet,
    );
  }
  scope.emit({
    type: 'step.deduplicated',
    at: scope.clock.now(),
    ...base,
    idempotencyKey: key,
    holder: keyHolder(holder),
    expectations,
    args: input.args,
    ...(input.parentStepId ? { parentStepId: input.parentStepId } : {}),
  });
  return finish({ ok: true, deduplicated: true });
}

function refuse(
  state: StepState,
  key: string,
  holder: IdempotencyHolder,
  code: FailureCode,
  detail: string,
  unmet?: string[],
): Next {
  const { scope, input, base } = state;
  scope.emit({
    type: 'step.refused',
    at: scope.clock.now(),
    ...base,
    code,
    detail,
    idempotencyKey: key,
    state: holder.state,
    holder: keyHolder(holder),
    args: input.args,
    ...(input.parentStepId ? { parentStepId: input.parentStepId } : {}),
  });
  return finish(fail(code, detail, unmet));
}

/** A completed key's expectations, when the live world can show whether they hold. */
function checkableEffects(
  holder: IdempotencyHolder,
  spec: AnyCapabilitySpec,
): { ok: true; expectations: Expectation[] } | { ok: false; why: string } {
  if (!holder.expectations) return { ok: false, why: 'no expectations of that step were recorded' };
  if (spec.acceptance)
    return {
      ok: false,
      why: `${spec.name} judges its effects with an acceptance function, which needs the world as it was at that step's dispatch`,
    };
  return { ok: true, expectations: holder.expectations };
}

/** The same verb with the same arguments as parsed (compared as JSON, as a journal keeps them). */
function sameStep(holder: IdempotencyHolder, verb: string, args: unknown): boolean {
  return holder.verb === verb && isDeepStrictEqual(asJson(holder.args), asJson(args));
}

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null)) as unknown;

function keyHolder({ planId, stepId, verb, args }: IdempotencyHolder): KeyHolder {
  return { planId, stepId, verb, args };
}

function describeHolder(holder: IdempotencyHolder): string {
  return `step ${holder.stepId} of plan ${holder.planId} (${describeStep(holder.verb, holder.args)})`;
}

function describeStep(verb: string, args: unknown): string {
  const shown = JSON.stringify(args ?? null);
  return `${verb} ${shown.length > ARGS_SHOWN ? `${shown.slice(0, ARGS_SHOWN - 1)}…` : shown}`;
}
