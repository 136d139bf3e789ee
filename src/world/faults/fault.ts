import type { FailureCode } from '../../contracts/failure-codes.js';

/** What can go wrong on purpose. Every kind is reproducible: randomness comes from a seeded source. */
export type Fault =
  /** Never settles; rejects with `aborted` when its signal fires. */
  | { kind: 'hang' }
  /** Never settles and ignores its signal: what the hanging-invocation detector exists for. */
  | { kind: 'hang_ignoring_abort' }
  /** Throws synchronously, before any promise exists. */
  | { kind: 'throw'; code?: FailureCode }
  | { kind: 'reject'; code?: FailureCode }
  /** Waits `delayMs` of clock time (abortable), then does the real thing. */
  | { kind: 'slow'; delayMs: number }
  /** Rejects with probability `probability`, else does the real thing. */
  | { kind: 'flaky'; probability: number; code?: FailureCode }
  /** Resolves as if done, but changes nothing. */
  | { kind: 'wrong_effects' }
  /** The runner waits (abortably) without issuing any actuator command. */
  | { kind: 'never_actuates' }
  /** Works for `afterMs` of clock time from the first call, then cuts the effect short and stalls (abortably). */
  | { kind: 'partial'; afterMs: number };

export type FaultKind = Fault['kind'];

export const FAULT_KINDS: readonly FaultKind[] = [
  'hang',
  'hang_ignoring_abort',
  'throw',
  'reject',
  'slow',
  'flaky',
  'wrong_effects',
  'never_actuates',
  'partial',
];

/** The error an injected throw/reject/flaky fault raises when no failure code was asked for. */
export class InjectedFault extends Error {
  constructor(
    readonly target: string,
    readonly fault: FaultKind,
  ) {
    super(`injected ${fault} fault on ${target}`);
    this.name = 'InjectedFault';
  }
}

export function describeFault(fault: Fault): string {
  switch (fault.kind) {
    case 'throw':
    case 'reject':
      return fault.code ? `${fault.kind}:${fault.code}` : fault.kind;
    case 'slow':
      return `slow:${fault.delayMs}`;
    case 'flaky':
      return `flaky:${fault.probability}${fault.code ? `:${fault.code}` : ''}`;
    case 'partial':
      return `partial:${fault.afterMs}`;
    default:
      return fault.kind;
  }
}
