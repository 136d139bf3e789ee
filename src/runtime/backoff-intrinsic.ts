import type { Clock } from '../contracts/clock.js';
import type { Random } from '../random.js';
import { backoffDelayMs, type BackoffPolicy } from '../recovery/backoff.js';
import type { RunContext } from '../registry/capability-spec.js';
import type { CompiledNode } from './compile.js';
import { waitOnClock } from './wait-intrinsic.js';

/** The executor policy's default jitter, so a tree's backoff spreads retries as a step's own retries do. */
export const BACKOFF_JITTER_RATIO = 0.2;

/**
 * `action [backoff, baseMs, maxMs]` inside a retry, for one run: passes at once
 * on the first attempt of the retry's current entry, then waits before each
 * later one: the project's backoffDelayMs, doubling from baseMs, with the
 * step-level policy's ±20 % jitter, never above maxMs. Attempts count per entry
 * of the enclosing retry, so a retry that starts over (under a repeat, say)
 * starts without delay again.
 */
export class BackoffIntrinsic {
  private readonly attempts: ({ entry: number; count: number } | undefined)[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  /** `retryEntry` counts how often the enclosing retry node has been entered. */
  start(node: CompiledNode, retryEntry: number, ctx: RunContext): boolean | Promise<boolean> {
    const previous = this.attempts[node.index];
    const attempts = previous && previous.entry === retryEntry ? previous.count : 0;
    this.attempts[node.index] = { entry: retryEntry, count: attempts + 1 };
    if (attempts === 0) return true;
    const [initialDelayMs, maxDelayMs] = node.args as [number, number];
    const policy: BackoffPolicy = {
      initialDelayMs,
      maxDelayMs,
      backoffMultiplier: 2,
      jitterRatio: BACKOFF_JITTER_RATIO,
    };
    return waitOnClock(this.clock, ctx.signal, backoffDelayMs(attempts, policy, this.random));
  }
}
