/**
 * Leaves and guards the runtime itself implements, because they need the run's
 * state (attempt counters, failure history, watchdog timers) that a binding
 * cannot see. Their names are reserved in the BindingRegistry. Each lives in
 * its own file: backoff-intrinsic.ts, round-robin-intrinsic.ts, wait-intrinsic.ts.
 *
 * - `action [backoff, baseMs, maxMs]`: inside a retry; succeeds at once on the
 *   first attempt, then waits min(maxMs, baseMs * 2^(n-1)) with a seeded ±20 %
 *   jitter, never above maxMs, before attempt n+1 (recovery/backoff.ts).
 * - `action [round_robin, "a", "b", ...]`: runs the named actions in rotation,
 *   starting after the one that last succeeded (Nav2's RoundRobin).
 * - `while(retryable)`: fails (aborting the node) once a failure below it has a
 *   code the step does not retry.
 * - `while(watchdog, "kind", limitMs, ...)`: see watchdog-spec.ts.
 * - `wait [ms]` / `wait [min, max]` nodes run on the injected clock, not Date.
 */
export const INTRINSIC_ACTIONS = ['backoff', 'round_robin'] as const;
export const INTRINSIC_GUARDS = ['watchdog', 'retryable'] as const;
export const RESERVED_NAMES: readonly string[] = [...INTRINSIC_ACTIONS, ...INTRINSIC_GUARDS, 'wait'];
