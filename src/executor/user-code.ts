import { Expectations, type Expectation } from '../contracts/expectation.js';
import type { Observation } from '../contracts/world.js';
import type { AcceptanceResult, AnyCapabilitySpec, GuardContext, GuardResult } from '../registry/capability-spec.js';
import { expectationsFor, judgeEffects } from '../registry/effects.js';

/*
 * A capability's guard, expectations, acceptance and sub-goals are user code.
 * Whatever they do (throw, return a promise, return the wrong shape), the
 * step still ends explicitly: these wrappers turn misbehaviour into a
 * `runner_error` detail naming the function, never an exception that escapes
 * the executor.
 */

export type Contained<T> = { ok: true; value: T } | { ok: false; detail: string };

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  try {
    return typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error));
  } catch {
    return String(error);
  }
}

/** A short description of a value of the wrong shape, for an error message. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function')
    return 'a Promise (it must be synchronous)';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    let text: string;
    try {
      text = JSON.stringify(value) ?? '';
    } catch {
      text = '';
    }
    return text ? `the object ${text.length > 120 ? `${text.slice(0, 117)}...` : text}` : 'an object';
  }
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects returned above: a primitive or a function
  return `${typeof value} ${String(value)}`;
}

function contain<T>(
  what: string,
  call: () => unknown,
  valid: (value: unknown) => value is T,
  shape: string,
): Contained<T> {
  let value: unknown;
  try {
    value = call();
  } catch (error) {
    return { ok: false, detail: `${what} threw: ${errorText(error)}` };
  }
  if (!valid(value)) {
    // A promise that rejects later would be an unhandled rejection: observe it.
    if (value && typeof (value as { then?: unknown }).then === 'function')
      (value as Promise<unknown>).then(undefined, () => undefined);
    return { ok: false, detail: `${what} returned ${describe(value)}; it must return ${shape}` };
  }
  return { ok: true, value };
}

const isGuardResult = (value: unknown): value is GuardResult =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { ok?: unknown }).ok === 'boolean' &&
  ((value as GuardResult).ok || typeof (value as { reason?: unknown }).reason === 'string');

const isAcceptance = (value: unknown): value is AcceptanceResult =>
  typeof value === 'object' &&
  value !== null &&
  ((value as { ok?: unknown }).ok === true ||
    ((value as { ok?: unknown }).ok === false && Array.isArray((value as { unmet?: unknown }).unmet)));

export function callGuard(spec: AnyCapabilitySpec, ctx: GuardContext, args: unknown): Contained<GuardResult> {
  return contain(
    `${spec.name}.guard`,
    () => spec.guard(ctx, args),
    isGuardResult,
    '{ ok: true } or { ok: false, reason: string }',
  );
}

export function callExpect(spec: AnyCapabilitySpec, pre: Observation, args: unknown): Contained<Expectation[]> {
  const called = contain(
    `${spec.name}.expect`,
    () => expectationsFor(spec, pre, args),
    (v): v is unknown[] => Array.isArray(v),
    'an array of expectations',
  );
  if (!called.ok) return called;
  const parsed = Expectations.safeParse(called.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      ok: false,
      detail: `${spec.name}.expect returned an invalid expectation at [${issue.path.join('.')}]: ${issue.message}`,
    };
  }
  return { ok: true, value: parsed.data };
}

export function callJudge(
  spec: AnyCapabilitySpec,
  expectations: readonly Expectation[],
  pre: Observation,
  post: Observation,
  args: unknown,
): Contained<AcceptanceResult> {
  return contain(
    `${spec.name}.acceptance`,
    () => judgeEffects(spec, expectations, pre, post, args),
    isAcceptance,
    '{ ok: true } or { ok: false, unmet: string[] }',
  );
}

const isDuration = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

/** The expected duration of a step of this capability with these arguments (`durationFor`, contained). */
export function callDurationFor(spec: AnyCapabilitySpec, args: unknown): Contained<number> {
  if (!spec.durationFor) return { ok: true, value: spec.expectedDurationMs };
  return contain(
    `${spec.name}.durationFor`,
    () => spec.durationFor!(args),
    isDuration,
    'a positive number of milliseconds',
  );
}
