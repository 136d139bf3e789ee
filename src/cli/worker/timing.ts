import type { Clock, TimerHandle } from '../../contracts/clock.js';

/** Waits `ms` on the clock, or less when `signal` aborts first. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = clock.setTimeout(done, ms);
    function done() {
      clock.clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Waits for `work` to settle, however it settles, but no longer than `ms`: a fence never waits on a stuck part. */
export async function settleWithin(clock: Clock, work: Promise<unknown> | undefined, ms: number): Promise<void> {
  if (!work) return;
  let timer: TimerHandle | undefined;
  const late = new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, ms)));
  await Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    late,
  ]);
  if (timer) clock.clearTimeout(timer);
}
