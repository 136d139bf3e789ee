import { type FailureCode, isFailureCode } from '../../contracts/failure-codes.js';
import type { Fault } from './fault.js';
import { ACTUATOR_METHODS, type ActuatorMethod, VERB_ACTUATORS, isActuatorMethod } from './targets.js';

/** One parsed `--fault` spec: where it applies and what it does. */
export interface FaultRule {
  /** The spec as written, e.g. `dig_block=flaky:0.3`. */
  spec: string;
  target: string;
  /** A verb applies while that capability runs; an actuator applies to every call of that world method. */
  targetKind: 'verb' | 'actuator';
  actuators: readonly ActuatorMethod[];
  fault: Fault;
}

export const FAULT_SYNTAX =
  'hang, hang_ignoring_abort, throw[:<code>], reject[:<code>], slow:<ms>, flaky:<probability 0..1>[:<code>], wrong_effects, never_actuates, partial[:<ms>]';

const DEFAULT_PARTIAL_MS = 1000;

export class FaultSpecError extends Error {
  constructor(spec: string, problem: string) {
    super(`invalid fault spec "${spec}": ${problem}`);
    this.name = 'FaultSpecError';
  }
}

export interface ParseFaultOptions {
  /** Verbs beyond the built-in ones (e.g. every registered capability); they can take runner-level faults only. */
  extraVerbs?: readonly string[];
}

/**
 * Parses `<verb or actuator>=<fault>[:<param>]`, e.g. `navigate=hang`, `dig_block=flaky:0.3`, `craft_item=slow:500`.
 */
export function parseFaultSpec(spec: string, options: ParseFaultOptions = {}): FaultRule {
  const separator = spec.indexOf('=');
  if (separator < 1) throw new FaultSpecError(spec, 'expected <verb or actuator>=<fault>, e.g. navigate=hang');
  const target = spec.slice(0, separator).trim();
  const [kind = '', ...params] = spec
    .slice(separator + 1)
    .trim()
    .split(':');
  const builtInVerb = VERB_ACTUATORS[target];
  const extraVerb = options.extraVerbs?.includes(target) ?? false;
  if (!builtInVerb && !extraVerb && !isActuatorMethod(target)) {
    const verbs = [...Object.keys(VERB_ACTUATORS), ...(options.extraVerbs ?? [])];
    throw new FaultSpecError(
      spec,
      `unknown target "${target}"; use a verb (${verbs.join(', ')}) or a world actuator (${ACTUATOR_METHODS.join(', ')})`,
    );
  }
  const targetKind = builtInVerb || extraVerb ? 'verb' : 'actuator';
  const fault = parseFault(spec, kind, params);
  if (fault.kind === 'never_actuates' && targetKind === 'actuator') {
    throw new FaultSpecError(
      spec,
      `never_actuates makes a capability's runner wait without acting, so it needs a verb, not the actuator "${target}"`,
    );
  }
  const actuators = builtInVerb ?? (isActuatorMethod(target) && targetKind === 'actuator' ? [target] : []);
  return { spec, target, targetKind, actuators, fault };
}

export function parseFaultSpecs(specs: readonly string[], options: ParseFaultOptions = {}): FaultRule[] {
  return specs.map((spec) => parseFaultSpec(spec, options));
}

function parseFault(spec: string, kind: string, params: string[]): Fault {
  const noParams = (fault: Fault): Fault => {
    if (params.length > 0) throw new FaultSpecError(spec, `${kind} takes no parameter, got "${params.join(':')}"`);
    return fault;
  };
  switch (kind) {
    case 'hang':
    case 'hang_ignoring_abort':
    case 'wrong_effects':
    case 'never_actuates':
      return noParams({ kind });
    case 'throw':
    case 'reject':
      if (params.length > 1)
        throw new FaultSpecError(spec, `${kind} takes at most a failure code, e.g. ${kind}:no_path`);
      return params[0] === undefined ? { kind } : { kind, code: failureCode(spec, params[0]) };
    case 'slow': {
      if (params.length !== 1) throw new FaultSpecError(spec, 'slow needs a delay in ms, e.g. slow:500');
      return { kind, delayMs: number(spec, 'slow delay', params[0]!, 0, Number.POSITIVE_INFINITY) };
    }
    case 'flaky': {
      if (params.length < 1 || params.length > 2)
        throw new FaultSpecError(
          spec,
          'flaky needs a probability and optionally a code, e.g. flaky:0.3 or flaky:0.3:no_path',
        );
      const probability = number(spec, 'flaky probability', params[0]!, 0, 1);
      return params[1] === undefined
        ? { kind, probability }
        : { kind, probability, code: failureCode(spec, params[1]) };
    }
    case 'partial': {
      if (params.length > 1)
        throw new FaultSpecError(spec, 'partial takes at most the working time in ms, e.g. partial:1500');
      return {
        kind,
        afterMs:
          params[0] === undefined
            ? DEFAULT_PARTIAL_MS
            : number(spec, 'partial time', params[0], 0, Number.POSITIVE_INFINITY),
      };
    }
    default:
      throw new FaultSpecError(spec, `unknown fault "${kind}"; valid faults: ${FAULT_SYNTAX}`);
  }
}

function number(spec: string, what: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new FaultSpecError(
      spec,
      `${what} must be a number in [${min}, ${max === Number.POSITIVE_INFINITY ? '∞' : max}], got "${text}"`,
    );
  }
  return value;
}

function failureCode(spec: string, text: string): FailureCode {
  if (!isFailureCode(text))
    throw new FaultSpecError(spec, `"${text}" is not a failure code (e.g. no_path, runner_error, world_disconnected)`);
  return text;
}
