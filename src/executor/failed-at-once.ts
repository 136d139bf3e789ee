import type { SafetySignal } from './safety/index.js';
import type { StepRecord } from './events.js';
import type { RunScope } from './scope.js';

/**
 * The responses that failed without the clock moving (a flight with no path out of a closed hole fails in 0 ms): the
 * same world gives the same answer, so such a response is not run again until time has passed.
 */
export class FailedAtOnce {
  private readonly failed = new Map<string, { at: number; why: string }>();
  constructor(private readonly scope: RunScope) {}

  record(verb: string, startedAt: number, record: StepRecord | null): void {
    if (this.scope.clock.now() !== startedAt || record?.outcome.ok !== false) return;
    this.failed.set(verb, { at: startedAt, why: `${verb} ${record.outcome.code}: ${record.outcome.detail}` });
  }

  /** The signal without the responses that failed at this very instant. */
  leftOf(signal: SafetySignal): SafetySignal {
    const now = this.scope.clock.now();
    return { ...signal, responses: signal.responses.filter((r) => this.failed.get(r.verb)?.at !== now) };
  }

  any(): boolean {
    const now = this.scope.clock.now();
    return [...this.failed.values()].some((f) => f.at === now);
  }

  describe(): string {
    return [...this.failed.values()].map((f) => f.why).join('; ');
  }
}
