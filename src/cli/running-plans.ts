/** Resolves when the process is asked to stop (Ctrl-C or a service manager's SIGTERM). */
export function stopRequested(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** The plans a server (the API, the MCP server) started, so a stop can cancel them and wait until each has ended its step and been journaled. */
export class RunningPlans {
  private readonly stop = new AbortController();
  private readonly results = new Set<Promise<unknown>>();

  get signal(): AbortSignal {
    return this.stop.signal;
  }

  get size(): number {
    return this.results.size;
  }

  track<R extends { result: Promise<unknown> }>(run: R): R {
    const settled = run.result.catch(() => undefined);
    this.results.add(settled);
    void settled.finally(() => this.results.delete(settled));
    return run;
  }

  async cancelAll(graceMs: number): Promise<void> {
    this.stop.abort(new Error('the server is stopping'));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled([...this.results]), grace]);
    clearTimeout(timer);
  }
}
