import type { SafetyOverride } from '../contracts/plan-step.js';
import { countByKind, round, type SafetySignal } from './safety/index.js';
import type { RunScope } from './scope.js';

/** A mob that got at the sheltered bot, or a fall in its health there. */
export interface Breach {
  /** "hurt up a pillar by a spider (health 10 → 8)", "a spider gets at it up a pillar". */
  what: string;
  /** The hostile signal to answer, or null when none the safety layer sees reaches the bot. */
  signal: SafetySignal | null;
}

/**
 * Looks for a breach at each look of the wait: a hostile that can reach the bot where it is (the assessment sees the
 * shelter: walkers below a pillar do not, a spider up it does), or its health lower than at the last look (a heal
 * between two looks only hides a hit smaller than it). A player in that shelter strikes the intruder or leaves;
 * waiting there, a night's bot was shot 5, 4, 4, 4 in its hole, to death.
 */
export function breachWatch(scope: RunScope, where: string, options: { combat?: SafetyOverride }): () => Breach | null {
  let last = scope.world.health();
  return () => {
    const health = scope.world.health();
    const fell = health < last ? ` (health ${round(last)} → ${round(health)})` : '';
    last = health;
    const signal = scope.safety.threatRemaining(options);
    if (!signal && !fell) return null;
    const threats = signal?.assessment?.threats ?? [];
    const who = threats.length > 0 ? countByKind(threats) : null;
    const what = fell
      ? `hurt ${where}${who ? ` by ${who}` : ''}${fell}`
      : `${who ?? 'a hostile'} ${threats.length > 1 ? 'get' : 'gets'} at it ${where}`;
    return { what, signal };
  };
}

/** The breach's signal, its reasons saying what broke in, for the events. */
export function breachSignal(signal: SafetySignal, what: string): SafetySignal {
  return {
    ...signal,
    detail: `${what}; ${signal.detail}`,
    responses: signal.responses.map((r) => ({ ...r, reason: `${what}; ${r.reason ?? signal.detail}` })),
  };
}

const ANSWERED: Readonly<Record<string, string>> = {
  attack_entity: 'fought it',
  flee: 'fled',
  failed: 'its answer failed',
};

/** A breach answered, or being answered: "hurt up a pillar by a spider (health 10 → 8): fought it". */
export interface BreachNote {
  what: string;
  answer?: string;
}

/** The first round after a breach says how it was answered. */
export function noteAnswer(breaches: BreachNote[], answered: string): void {
  const last = breaches.at(-1);
  if (last && last.answer === undefined) last.answer = ANSWERED[answered] ?? answered;
}

export function describeBreaches(breaches: readonly BreachNote[]): string {
  return breaches.map((b) => (b.answer ? `${b.what}: ${b.answer}` : b.what)).join('; ');
}
