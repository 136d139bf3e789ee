import type { FailureCode } from '../contracts/failure-codes.js';
import { closestMatch } from '../registry/suggest.js';
import type { NodeArgument } from './tree-definition.js';

/**
 * Watchdogs are declared as a `while` guard named `watchdog` with kind/limit pairs:
 *
 *   sequence while(watchdog, "ttfa", 2000, "noActuator", 3000) { ... }
 *
 * - ttfa: from the node starting to the first actuator command issued below it.
 * - maxStateDuration: the node RUNNING with no state change of any node below it.
 * - noActuator: time since the last actuator command below it ended, while none is in flight.
 */
export const WATCHDOG_KINDS = {
  ttfa: 'ttfa_exceeded',
  maxStateDuration: 'state_timeout',
  noActuator: 'stuck.loop',
} as const satisfies Record<string, FailureCode>;

export type WatchdogKind = keyof typeof WATCHDOG_KINDS;

export const WATCHDOG_KIND_LIST = Object.keys(WATCHDOG_KINDS) as WatchdogKind[];

export interface WatchdogSpec {
  kind: WatchdogKind;
  limitMs: number;
}

/** Step-level limits applied to the whole run for each kind the tree does not declare anywhere. */
export interface WatchdogDefaults {
  ttfaMs: number;
  noActuatorMs: number;
  maxStateDurationMs: number;
}

export const DEFAULT_TTFA_MS = 2000;
export const DEFAULT_NO_ACTUATOR_MS = 3000;
/** maxStateDuration defaults to this multiple of the capability's expectedDurationMs. */
export const STATE_DURATION_PER_EXPECTED = 2;
const FALLBACK_EXPECTED_DURATION_MS = 15_000;

export function defaultWatchdogs(expectedDurationMs?: number, overrides?: Partial<WatchdogDefaults>): WatchdogDefaults {
  return {
    ttfaMs: overrides?.ttfaMs ?? DEFAULT_TTFA_MS,
    noActuatorMs: overrides?.noActuatorMs ?? DEFAULT_NO_ACTUATOR_MS,
    maxStateDurationMs:
      overrides?.maxStateDurationMs ??
      STATE_DURATION_PER_EXPECTED * (expectedDurationMs ?? FALLBACK_EXPECTED_DURATION_MS),
  };
}

export type ParsedWatchdogs = { ok: true; specs: WatchdogSpec[] } | { ok: false; errors: string[] };

export function parseWatchdogArguments(args: readonly NodeArgument[]): ParsedWatchdogs {
  const errors: string[] = [];
  const specs: WatchdogSpec[] = [];
  const example = 'e.g. while(watchdog, "ttfa", 2000)';
  if (args.length === 0 || args.length % 2 !== 0) {
    return { ok: false, errors: [`watchdog takes "kind", limitMs pairs (${example}); got ${args.length} argument(s)`] };
  }
  for (let i = 0; i < args.length; i += 2) {
    const kind = args[i];
    const limit = args[i + 1];
    if (typeof kind !== 'string' || !(WATCHDOG_KIND_LIST as string[]).includes(kind)) {
      const hint = typeof kind === 'string' ? closestMatch(kind, WATCHDOG_KIND_LIST) : undefined;
      errors.push(
        `unknown watchdog kind ${JSON.stringify(kind)}${hint ? ` (did you mean "${hint}"?)` : ''}; kinds: ${WATCHDOG_KIND_LIST.join(', ')}`,
      );
      continue;
    }
    if (typeof limit !== 'number' || !Number.isFinite(limit) || limit <= 0) {
      errors.push(`watchdog "${kind}" needs a positive limit in milliseconds, got ${JSON.stringify(limit)}`);
      continue;
    }
    if (specs.some((spec) => spec.kind === kind)) {
      errors.push(`watchdog "${kind}" is declared twice on one node`);
      continue;
    }
    specs.push({ kind: kind as WatchdogKind, limitMs: limit });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, specs };
}
