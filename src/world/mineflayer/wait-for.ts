import type { Clock } from '../../contracts/clock.js';

/**
 * Resolves once `ready()` holds, re-checking whenever `subscribe`'s event fires;
 * rejects after `timeoutMs` on the clock. Unsubscribes either way.
 */
export function waitFor(
  clock: Clock,
  timeoutMs: number,
  ready: () => boolean,
  subscribe: (check: () => void) => () => void,
): Promise<void> {
  if (ready()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!ready()) return;
      finish();
      resolve();
    };
    const unsubscribe = subscribe(check);
    const timer = clock.setTimeout(() => {
      finish();
      reject(new Error(`condition not met within ${timeoutMs} ms`));
    }, timeoutMs);
    function finish() {
      unsubscribe();
      clock.clearTimeout(timer);
    }
  });
}
