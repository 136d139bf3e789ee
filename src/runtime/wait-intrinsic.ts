import type { Clock } from '../contracts/clock.js';

/** `wait [ms]` waits ms, `wait [min, max]` a seeded whole number of ms in [min, max], bare `wait` forever. */
export function waitDurationMs(args: readonly unknown[], random: () => number): number {
  const [min, max] = args as number[];
  if (min === undefined) return Infinity;
  if (max === undefined) return min;
  return Math.floor(random() * (max - min + 1)) + min;
}

/** Resolves true after `ms` on the injected clock (never, for Infinity), or false as soon as `signal` fires. */
export function waitOnClock(clock: Clock, signal: AbortSignal, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = ms === Infinity ? undefined : clock.setTimeout(() => resolve(true), ms);
    signal.addEventListener(
      'abort',
      () => {
        if (timer) clock.clearTimeout(timer);
        resolve(false);
      },
      { once: true },
    );
  });
}
