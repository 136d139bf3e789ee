import type { Clock } from '../contracts/clock.js';

/**
 * Waits for `promise` at most `ms` on the clock (forever when `ms` is undefined), and no longer than `signal`
 * stays unaborted. Resolves with its value, or `undefined` when the time or the signal ran out first;
 * rejects as `promise` does.
 */
export function within<T>(
  promise: Promise<T>,
  clock: Clock,
  ms: number | undefined,
  signal?: AbortSignal,
): Promise<T | undefined> {
  if (signal?.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    let done = false;
    const settle = (then: () => void) => {
      if (done) return;
      done = true;
      if (timer) clock.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      then();
    };
    const onAbort = () => settle(() => resolve(undefined));
    const timer = ms === undefined ? null : clock.setTimeout(() => settle(() => resolve(undefined)), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
    );
  });
}

/** Aborted when any of the signals given is. */
export function anyOf(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const given = signals.filter((s) => s !== undefined);
  return given.length > 1 ? AbortSignal.any(given) : given[0];
}
