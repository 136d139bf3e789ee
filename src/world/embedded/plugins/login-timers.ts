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

function captureIntervalsUntilMicrotask(into: Interval[]): void {
  const original = globalThis.setInterval;
  const capturing = ((...args: Parameters<typeof setInterval>) => {
    const interval = original(...args);
    into.push(interval);
    return interval;
  }) as typeof setInterval;
  globalThis.setInterval = capturing;
  queueMicrotask(() => {
    if (globalThis.setInterval === capturing) globalThis.setInterval = original;
  });
}
