import { WorldError } from '../contracts/index.js';
import type { RunContext } from '../registry/index.js';

const POLL_MS = 25;

/**
 * Polls `ready` on the run's clock until it holds (true) or `timeoutMs` passes (false).
 * For effects the world applies on its own schedule (a jump lifting the bot, a drop
 * being picked up); it rejects as soon as the node is aborted.
 */
export function waitUntil(ctx: RunContext<unknown>, ready: () => boolean, timeoutMs: number): Promise<boolean> {
  const { clock, signal } = ctx;
  return new Promise((resolve, reject) => {
    const deadline = clock.now() + timeoutMs;
    let timer: ReturnType<typeof clock.setTimeout> | undefined;
    const onAbort = () => {
      if (timer) clock.clearTimeout(timer);
      reject(signal.reason ?? new WorldError('aborted', 'the wait was aborted'));
    };
    const check = () => {
      if (ready() || clock.now() >= deadline) {
        signal.removeEventListener('abort', onAbort);
        resolve(ready());
        return;
      }
      timer = clock.setTimeout(check, POLL_MS);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    check();
  });
}
