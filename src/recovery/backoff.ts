export interface BackoffPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  backoffMultiplier: number;
  /** Fraction of the delay added or removed at random: 0.2 gives ±20 %. */
  jitterRatio: number;
}

/** Exponential backoff with jitter for the 1-based `attempt`, never above `maxDelayMs`. */
export function backoffDelayMs(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const exponential = policy.initialDelayMs * policy.backoffMultiplier ** Math.max(0, attempt - 1);
  const base = Math.min(policy.maxDelayMs, exponential);
  const jittered = base * (1 - policy.jitterRatio + 2 * policy.jitterRatio * random());
  return Math.round(Math.min(policy.maxDelayMs, Math.max(0, jittered)));
}
