import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The environment variable that turns the worker's loop-delay report on (off by default: it is for `npm run bench -- fleet`). */
export const LOOP_STATS_ENV = 'VERBTREE_LOOP_STATS';
/** The prefix of the report's stdout line, followed by JSON: {"p50","p99","max"} in ms. */
export const LOOP_STATS_PREFIX = 'loop-delay ';

/**
 * With VERBTREE_LOOP_STATS=1, each SIGUSR2 prints the worker's event-loop delay since the previous one (p50, p99, max
 * in ms) as one stdout line and starts a new window: the fleet bench brackets its plan phase with two signals. Without
 * it nothing is measured and SIGUSR2 keeps Node's default.
 */
export function reportLoopDelayOnSignal(write: (line: string) => void): () => void {
  if (process.env[LOOP_STATS_ENV] !== '1') return () => undefined;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const report = () => {
    const ms = (ns: number) => ns / 1e6;
    write(
      `${LOOP_STATS_PREFIX}${JSON.stringify({ p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) })}`,
    );
    delay.reset();
  };
  process.on('SIGUSR2', report);
  return () => {
    process.off('SIGUSR2', report);
    delay.disable();
  };
}
