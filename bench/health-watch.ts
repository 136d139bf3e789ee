import type { Clock, TimerHandle } from '../src/contracts/clock.js';

/**
 * Deaths and damage as the benches count them, from a world's own health (the server's, not the bot's view of it):
 * read every HEALTH_SAMPLE_MS on the clock, so a death between two of the executor's looks is still counted. A death
 * is the health reaching 0, or a rise bigger than regeneration's between two samples from above 0 (a respawn at full
 * health whose 0 fell between them; from a 0 sampled, the rise is the same death's respawn); damage is every drop summed.
 */

/** The health is read this often. */
export const HEALTH_SAMPLE_MS = 50;
/** Regeneration heals 1 at a time: a bigger rise between samples is a respawn at full health. */
const RESPAWN_RISE = 1.5;

export interface HealthWatch {
  readonly damage: number;
  readonly deaths: number;
  stop(): void;
}

/** Samples `read` (undefined while there is nothing to read, e.g. before the player joined) until `stop`. */
export function watchHealth(clock: Clock, read: () => number | undefined, everyMs = HEALTH_SAMPLE_MS): HealthWatch {
  const figures = { last: undefined as number | undefined, damage: 0, deaths: 0 };
  let timer: TimerHandle | null = null;
  const sample = () => {
    const now = read();
    if (now !== undefined) {
      const last = figures.last ?? now;
      if (now < last) figures.damage += last - now;
      if (last > 0 && (now <= 0 || now - last > RESPAWN_RISE)) figures.deaths++;
      figures.last = now;
    }
    timer = clock.setTimeout(sample, everyMs);
  };
  sample();
  return {
    get damage() {
      return figures.damage;
    },
    get deaths() {
      return figures.deaths;
    },
    stop() {
      if (timer) clock.clearTimeout(timer);
      timer = null;
    },
  };
}
