/**
 * Journal writes in the order they were asked for. A journal that writes on call (SQLite) commits each at once, so
 * its writes are on disk before the caller goes on, as before. One that does not (PostgreSQL) commits them in
 * batches: every write asked for while the last batch was in flight (or in the same turn of the event loop) goes
 * into the next batch, one transaction, begun only after the one before it committed. A step's burst of events
 * (started, attempt, expectations, node states, first action) is one transaction and one fence check, not one each:
 * on a busy worker every statement waits for a turn of its event loop.
 *
 * The first failure stops the queue: that batch's writes and every later one are refused with it, and `flush`
 * rejects with it from then on, so a runner that cannot journal learns it before it acts again.
 */
export class WriteQueue<W> {
  private readonly waiting: Queued<W>[] = [];
  /** Batches sent and not yet answered (one at most when batching; SQLite may have several answers on their way). */
  private outstanding = 0;
  /** A drain is due at the end of this turn. */
  private due = false;
  private last: Promise<void> = Promise.resolve();
  private failure: Error | null = null;

  /**
   * @param commit writes a batch in one transaction, in order, and answers each write's result in the same order.
   * @param writesOnCall the journal commits on call: each write goes alone and at once.
   */
  constructor(
    private readonly commit: (writes: W[]) => Promise<unknown[]>,
    private readonly writesOnCall: boolean,
  ) {}

  /** The error that stopped the queue, if one did. */
  get failed(): Error | null {
    return this.failure;
  }

  /**
   * Queues a write; the promise of its result (which the queue also watches: a caller may ignore it). A write given
   * as a function is made when its batch is formed, from what earlier writes answered; `undefined` means it cannot be
   * made yet (it needs the result of a write in the batch being formed), and the batch ends before it.
   * `committed` hears the result as soon as the write's batch commits, before any later batch is formed.
   */
  push<R>(write: W | (() => W | undefined), committed?: (result: R) => void): Promise<R> {
    if (this.failure) return handled(Promise.reject(this.failure));
    let settle!: Pick<Queued<W>, 'resolve' | 'reject'>;
    const result = new Promise<R>((resolve, reject) => {
      settle = {
        resolve: (value) => {
          committed?.(value as R);
          resolve(value as R);
        },
        reject,
      };
    });
    const make = typeof write === 'function' ? (write as () => W | undefined) : () => write;
    this.waiting.push({ make, ...settle });
    this.last = result.then(
      () => undefined,
      () => undefined,
    );
    if (this.writesOnCall) this.drain();
    else if (this.outstanding === 0 && !this.due) {
      // The rest of this turn's writes join the batch.
      this.due = true;
      queueMicrotask(() => {
        this.due = false;
        this.drain();
      });
    }
    return handled(result);
  }

  /** Resolves once every write queued so far is durable; rejects with the first failure. */
  async flush(): Promise<void> {
    await this.last;
    if (this.failure) throw this.failure;
  }

  /** Sends what can go now: every write, one batch each, on SQLite; the next batch when none is in flight otherwise. */
  private drain(): void {
    if (this.failure) return;
    if (this.writesOnCall) while (this.send()) continue;
    else if (this.outstanding === 0) this.send();
  }

  /** Sends the next batch; false when none could be formed. */
  private send(): boolean {
    const batch = this.nextBatch();
    if (batch.length === 0) return false;
    this.outstanding++;
    let committing: Promise<unknown[]>;
    try {
      committing = this.commit(batch.map((q) => q.write));
    } catch (error) {
      committing = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    committing.then(
      (results) => {
        this.outstanding--;
        batch.forEach((queued, i) => queued.resolve(results[i]));
        this.drain();
      },
      (error: unknown) => {
        this.outstanding--;
        this.stop(batch, error instanceof Error ? error : new Error(String(error)));
      },
    );
    return true;
  }

  /** The writes that can go together now, in order, up to the first that cannot be made yet (one on SQLite). */
  private nextBatch(): (Queued<W> & { write: W })[] {
    const batch: (Queued<W> & { write: W })[] = [];
    while (this.waiting.length > 0 && (!this.writesOnCall || batch.length === 0)) {
      const write = this.waiting[0]!.make();
      if (write !== undefined) {
        batch.push({ ...this.waiting.shift()!, write });
        continue;
      }
      // An answer still on its way may make it; with none, it never can be.
      if (batch.length > 0 || this.outstanding > 0) break;
      this.waiting.shift()!.reject(new Error('a journal write needed the answer of a write that was never sent'));
    }
    return batch;
  }

  private stop(batch: readonly Queued<W>[], error: Error): void {
    this.failure ??= error;
    for (const queued of [...batch, ...this.waiting.splice(0)]) queued.reject(this.failure);
  }
}

interface Queued<W> {
  make: () => W | undefined;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * The failure lives on in the queue: a caller that drops its copy of the promise must not raise an unhandled rejection.
 */
function handled<R>(promise: Promise<R>): Promise<R> {
  promise.catch(() => undefined);
  return promise;
}
