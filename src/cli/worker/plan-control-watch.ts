import type { Clock } from '../../contracts/clock.js';
import type { ExecutionRun } from '../../executor/executor.js';
import type { Journal } from '../../journal/journal.js';
import type { PlanControl } from '../../journal/sql/plan-control.js';
import { sleep } from './timing.js';

export interface ControlWatchDeps {
  journal: Pick<Journal, 'planControl'>;
  clock: Clock;
  /** How often the plan's row is read for an operator's request. */
  everyMs: number;
  say: (line: string) => void;
}

/**
 * Applies an operator's pause, resume or cancel of a fleet plan (written on the plan's row by a gateway in another
 * process) to its run here: `asked` (what the plan's claim read) at once, then what the row says every `everyMs`
 * until `ended` aborts. A read that fails (the database away for a moment) is only a late look: the next one applies
 * what was asked. Settles once `ended` aborts.
 */
export function watchPlanControl(
  deps: ControlWatchDeps,
  planId: string,
  run: ExecutionRun,
  ended: AbortSignal,
  asked: PlanControl,
): Promise<void> {
  let pausedHere = false;
  let cancelled = false;
  const apply = (asked: PlanControl) => {
    const reason = asked.reason ?? 'by the operator';
    if (asked.control === 'cancel' && !cancelled) {
      cancelled = run.cancel(reason);
      if (cancelled) deps.say(`plan ${planId}: cancelled through a gateway: ${reason}`);
    } else if (asked.control === 'pause' && !pausedHere) {
      pausedHere = run.pause(reason);
      if (pausedHere) deps.say(`plan ${planId}: paused through a gateway: ${reason}`);
    } else if (asked.control === null && pausedHere) {
      pausedHere = false;
      if (run.resume()) deps.say(`plan ${planId}: resumed through a gateway`);
    }
  };
  const look = async () => {
    apply(asked);
    for (;;) {
      await sleep(deps.clock, deps.everyMs, ended);
      if (ended.aborted) return;
      const now = await deps.journal.planControl(planId).catch(() => null);
      if (now && !ended.aborted) apply(now);
    }
  };
  return look();
}
