import type { Clock } from '../contracts/clock.js';
import type { WorldPort } from '../contracts/world.js';
import type { ProgressNote, RunContext } from '../registry/capability-spec.js';
import type { CompiledNode } from './compile.js';

/** What the executor supplies for one run: the step's validated arguments and the world. */
export interface RunContextParts<Args = unknown> {
  args: Args;
  world: WorldPort;
}

/** The run an invocation reports to (TreeRun); its watchdogs and hooks see the leaf's commands. */
export interface InvocationOwner {
  actuateFor<T>(invocation: Invocation, command: string, act: () => Promise<T>): Promise<T>;
  progressOf(invocation: Invocation, done: number, total?: number, note?: ProgressNote): void;
}

/**
 * One start of one leaf, and the context that leaf sees. Its identity is the
 * token: only the slot's current invocation may settle the node. The
 * AbortController is made on first use of the signal, since most leaves finish
 * without reading it.
 */
export class Invocation implements RunContext {
  settled = false;
  ok = false;
  live = 0;
  readonly args: unknown;
  readonly world: WorldPort;
  readonly clock: Clock;
  private controller: AbortController | undefined;
  private abortedWith: { reason: unknown } | undefined;
  constructor(
    private readonly owner: InvocationOwner,
    readonly node: CompiledNode,
    parts: RunContextParts,
    clock: Clock,
  ) {
    this.args = parts.args;
    this.world = parts.world;
    this.clock = clock;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedWith) this.controller.abort(this.abortedWith.reason);
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.abortedWith !== undefined;
  }

  abort(reason: unknown): void {
    if (this.abortedWith) return;
    this.abortedWith = { reason };
    this.controller?.abort(reason);
  }

  actuate<T>(command: string, act: () => Promise<T>): Promise<T> {
    return this.owner.actuateFor(this, command, act);
  }

  progress(done: number, total?: number, note?: ProgressNote): void {
    this.owner.progressOf(this, done, total, note);
  }
}
