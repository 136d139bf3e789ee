import type { SquidPlayer, SquidPlugin } from '../squid-types.js';

type Interval = ReturnType<typeof setInterval>;

/**
 * flying-squid's login starts a 5 s tab-list latency interval per player and
 * never clears it, so the process cannot exit and, after the server is
 * destroyed, the interval writes to a closed connection and throws.
 *
 * Login calls `player.setXp` first in one synchronous run that ends with
 * `spawned` and also creates that interval; nothing in it awaits. So for that
 * one run (closed again by a microtask) the intervals created are recorded as
 * the player's and cleared when the player disconnects.
 */
export const loginTimersPlugin: SquidPlugin = {
  player(player: SquidPlayer) {
    const owned: Interval[] = [];
    const originalSetXp = player.setXp;
    player.setXp = (...args: unknown[]) => {
      player.setXp = originalSetXp;
      captureIntervalsUntilMicrotask(owned);
      originalSetXp(...args);
    };
    player.once('disconnected', () => {
      for (const interval of owned.splice(0)) clearInterval(interval);
    });
    player.verbtreeClearTimers = () => {
      for (const interval of owned.splice(0)) clearInterval(interval);
    };
  },
};

/**
 * The owners capturing now, the latest last: a second login's `setXp` in the same synchronous run (before the first
 * one's microtask) must neither take over the first's intervals nor leave `setInterval` replaced for good, which
 * would hand every later interval of the process, the bots' included, to the first player to be cleared when it
 * leaves.
 */
const capturing: Interval[][] = [];
let nativeSetInterval: typeof setInterval | null = null;

function captureIntervalsUntilMicrotask(into: Interval[]): void {
  capturing.push(into);
  if (nativeSetInterval === null) {
    const native = globalThis.setInterval;
    nativeSetInterval = native;
    globalThis.setInterval = (...args: Parameters<typeof setInterval>) => {
      const interval = native(...args);
      capturing.at(-1)?.push(interval);
      return interval;
    };
  }
  queueMicrotask(() => {
    capturing.splice(capturing.indexOf(into), 1);
    if (capturing.length > 0 || nativeSetInterval === null) return;
    globalThis.setInterval = nativeSetInterval;
    nativeSetInterval = null;
  });
}
