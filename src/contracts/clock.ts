/** A cancellable timer handle returned by {@link Clock.setTimeout}. */
export interface TimerHandle {
  readonly id: number;
}

/**
 * The one source of time. Every timer, watchdog and timestamp in verbtree reads
 * a Clock, so tests can drive virtual time instead of sleeping.
 */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}
