import type { Clock, TimerHandle } from '../../contracts/clock.js';
import { WorldError } from '../../contracts/world.js';
import type { Random } from '../../random.js';
import { type Fault, InjectedFault } from './fault.js';

/**
 * What one faulted call needs: the real call (taking the signal it should obey) and where its time and luck come from.
 */
export interface FaultedCall<T> {
  label: string;
  signal: AbortSignal | undefined;
  clock: Clock;
  random: Random;
  invoke(signal: AbortSignal | undefined): Promise<T>;
  /** What a call that "succeeds" without effect resolves with. */
  noEffect: T;
  /** Shared across calls of one rule: when a `partial` fault's working window closes. */
  window: { endsAt: number | null };
}

function abortedError(label: string, fault: Fault): WorldError {
  return new WorldError('aborted', `${label} (injected ${fault.kind}) was aborted`);
}

function failure(label: string, fault: Fault & { code?: unknown }): Error {
  const code = 'code' in fault ? fault.code : undefined;
  return code
    ? new WorldError(code as WorldError['code'], `injected ${fault.kind} fault on ${label}`)
    : new InjectedFault(label, fault.kind);
}

/** A promise that only ever settles by rejecting with `aborted` when the signal fires. */
export function stall(signal: AbortSignal | undefined, error: () => Error): Promise<never> {
  return new Promise((_, reject) => {
    if (signal?.aborted) return reject(error());
    signal?.addEventListener('abort', () => reject(error()), { once: true });
  });
}

/** Waits on the clock; rejects (and clears the timer) if the signal fires first. */
export function delay(clock: Clock, ms: number, signal: AbortSignal | undefined, error: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(error());
    const onAbort = () => {
      clock.clearTimeout(handle);
      reject(error());
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs one call under a fault. Throws synchronously for `throw`; otherwise
 * returns the promise the caller sees. `fired` reports whether the fault took
 * effect (a flaky call that passed did not).
 */
export function runFaulted<T>(fault: Fault, call: FaultedCall<T>, fired: () => void): Promise<T> {
  const { label, signal } = call;
  const aborted = () => abortedError(label, fault);
  switch (fault.kind) {
    case 'hang':
    case 'never_actuates':
      fired();
      return stall(signal, aborted);
    case 'hang_ignoring_abort':
      fired();
      return new Promise<never>(() => {});
    case 'throw':
      fired();
      throw failure(label, fault);
    case 'reject':
      fired();
      return Promise.reject(failure(label, fault));
    case 'slow':
      fired();
      return delay(call.clock, fault.delayMs, signal, aborted).then(() => call.invoke(signal));
    case 'flaky':
      if (call.random() >= fault.probability) return call.invoke(signal);
      fired();
      return Promise.reject(failure(label, fault));
    case 'wrong_effects':
      fired();
      return signal?.aborted ? Promise.reject(aborted()) : Promise.resolve(call.noEffect);
    case 'partial':
      fired();
      return partial(fault.afterMs, call, aborted);
  }
}

/** Lets the real call work until the rule's window closes, then cuts it off and stalls until aborted. */
function partial<T>(afterMs: number, call: FaultedCall<T>, aborted: () => Error): Promise<T> {
  const { clock, signal, window } = call;
  window.endsAt ??= clock.now() + afterMs;
  const remaining = window.endsAt - clock.now();
  if (remaining <= 0) return stall(signal, aborted);
  const inner = new AbortController();
  const forward = () => inner.abort(signal?.reason);
  signal?.addEventListener('abort', forward, { once: true });
  return new Promise<T>((resolve, reject) => {
    let cut = false;
    const timer: TimerHandle = clock.setTimeout(() => {
      cut = true;
      inner.abort(new Error('partial fault window closed'));
      stall(signal, aborted).catch(reject);
    }, remaining);
    const done = () => {
      clock.clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    };
    call.invoke(inner.signal).then(
      (value) => {
        done();
        if (!cut) resolve(value);
      },
      (error: unknown) => {
        done();
        if (!cut) reject(error);
      },
    );
  });
}
