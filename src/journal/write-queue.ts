/**
 * Journal writes in the order they were asked for, each begun only after the one before it committed. A journal
 * that writes on call (SQLite) runs each at once, so its writes are on disk before the caller goes on, as before;
 * one that does not (PostgreSQL) chains them. The first failure stops the queue: later writes are refused with it,
 * and `flush` rejects with it from then on, so a runner that cannot journal learns it before it acts again.
 */
export class WriteQueue {
  private tail: Promise<void> = Promise.resolve();
  private failure: Error | null = null;

  constructor(private readonly writesOnCall: boolean) {}

  /** The error that stopped the queue, if one did. */
  get failed(): Error | null {
    return this.failure;
  }

  /** Queues a write; the promise of its result (which the queue also watches: a caller may ignore it). */
  push<R>(write: () => Promise<R>): Promise<R> {
    if (this.failure) return handled(Promise.reject(this.failure));
    const run = (): Promise<R> => {
      if (this.failure) return Promise.reject(this.failure);
      try {
        return write();
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const result = this.writesOnCall ? run() : this.tail.then(run);
    this.tail = result.then(
      () => undefined,
      (error: unknown) => {
        this.failure ??= error instanceof Error ? error : new Error(String(error));
      },
    );
    return handled(result);
  }

  /** Resolves once every write queued so far is durable; rejects with the first failure. */
  async flush(): Promise<void> {
    await this.tail;
    if (this.failure) throw this.failure;
  }
}

/**
 * The failure lives on in the queue: a caller that drops its copy of the promise must not raise an unhandled rejection.
 */
function handled<R>(promise: Promise<R>): Promise<R> {
  promise.catch(() => undefined);
  return promise;
}
