import pg from 'pg';

/**
 * A node-postgres client whose queries fail when no answer came in `readTimeoutMs`, judged after the event loop read
 * what came in. node-postgres's own `query_timeout` is a timer, and on a late loop (a worker of the crowd of 150 on
 * three workers ran 3 to 4.7 s late, `npm run bench -- fleet --bots 150 --workers 3`) a timer fires before the loop
 * reads the answer that came meanwhile: timers run before I/O in each turn. The worker's writes then failed with
 * "Query read timeout" though PostgreSQL had answered, and their runs with them. Here the timer only schedules the
 * judgement for the loop's check phase, after its I/O: an answer that arrived is read first and settles the query.
 * A query with no answer by then fails as node-postgres's does; the journal discards its connection (the statement
 * may still run there, until the server's statement_timeout ends it).
 */
export function clientWithReadTimeout(readTimeoutMs: number): typeof pg.Client {
  return class ReadTimeoutClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      // Every form of query (text, config, a stream) goes through here; only the promise forms are timed.
      const query = this.query.bind(this) as (...args: unknown[]) => unknown;
      this.query = ((...args: unknown[]) => {
        const answer = query(...args);
        return answer instanceof Promise ? withReadTimeout(answer, readTimeoutMs) : answer;
      }) as pg.Client['query'];
    }
  };
}

function withReadTimeout<T>(answer: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (then: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      then();
    };
    const judge = () => settle(() => reject(new Error(`Query read timeout: no answer in ${timeoutMs} ms`)));
    const timer = setTimeout(() => setImmediate(judge), timeoutMs);
    answer.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}
