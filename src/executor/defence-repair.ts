import { countByKind, type SafetySignal } from './safety/index.js';

/**
 * What one safety takeover ran and met, kept by the fast path as its rounds go: the step it interrupted counts it as a
 * repair of its own (issue 30 §2), named by {@link describeDefence}.
 */
export interface DefenceRun {
  /** The responses run, ok or not, in order. */
  ran: string[];
  /** Every hostile met in the rounds, by entity id. */
  met: Map<number, string>;
  /** The first signal answered, named by a defence that met no hostile. */
  firstSignal: SafetySignal['signal'] | null;
}

/**
 * "dig_in from 3 zombies", "attack_entity ×2, then flee from 2 zombies and a skeleton", "consume_food for hunger":
 * the responses run (repeats of one counted), and what they answered; null when none ran.
 */
export function describeDefence(defence: DefenceRun): string | null {
  if (defence.ran.length === 0) return null;
  const runs: { verb: string; times: number }[] = [];
  for (const verb of defence.ran) {
    const last = runs.at(-1);
    if (last?.verb === verb) last.times++;
    else runs.push({ verb, times: 1 });
  }
  const what = runs.map((r) => (r.times > 1 ? `${r.verb} ×${r.times}` : r.verb)).join(', then ');
  const hostiles = [...defence.met.values()].map((name) => ({ name }));
  if (hostiles.length > 0) return `${what} from ${countByKind(hostiles)}`;
  return defence.firstSignal ? `${what} for ${defence.firstSignal.replace('_', ' ')}` : what;
}
