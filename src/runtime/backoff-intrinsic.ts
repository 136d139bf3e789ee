import type { Clock } from '../contracts/clock.js';
import type { RunContext } from '../registry/capability-spec.js';
import type { CompiledNode } from './compile.js';
import { waitOnClock } from './wait-intrinsic.js';

/**
 * `action [backoff, baseMs, maxMs]` inside a retry, for one run: passes at once
 * on the first attempt of the retry's current entry, then waits before each
 * later one. Attempts count per entry of the enclosing retry, so a retry that
 * starts over (under a repeat, say) starts without delay again.
 */
export class BackoffIntrinsic {
  private readonly attempts: ({ entry: number; count: number } | undefined)[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly random: () => number,
  ) {}

  /** `retryEntry` counts how often the enclosing retry node has been entered. */
  start(node: CompiledNode, retryEntry: number, ctx: RunContext): boolean | Promise<boolean> {
    const previous = this.attempts[node.index];
    const attempts = previous && previous.entry === retryEntry ? previous.count : 0;
    this.attempts[node.index] = { entry: retryEntry, count: attempts + 1 };
    if (attempts === 0) return true;
    const [baseMs, maxMs] = node.args as number[];
    const delay = Math.min(maxMs!, baseMs! * 2 ** (attempts - 1)) * (0.5 + 0.5 * this.random());
    return waitOnClock(this.clock, ctx.signal, Math.round(delay));
  }
}
