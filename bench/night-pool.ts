/**
 * Runs `tasks` with at most `jobs` of them under way at once, starting each in the order given as a place frees up;
 * the results come back in the order of the tasks, whatever order they finish in. The first failure rejects once
 * the runs already started have ended (none is left running behind the caller).
 */
export async function inPool<T>(tasks: readonly (() => Promise<T>)[], jobs: number): Promise<T[]> {
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`jobs must be a whole number of 1 or more (got ${jobs})`);
  const results = new Array<T>(tasks.length);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async () => {
    while (next < tasks.length && failure === null) {
      const index = next++;
      try {
        results[index] = await tasks[index]!();
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, lane));
  if (failure !== null) throw (failure as { error: unknown }).error;
  return results;
}

/**
 * A gate that lets one piece of work through at a time, in the order they came (a failed one lets the next through).
 * The night bench sets its runs up through it: servers started and bots joined side by side gain nothing (six joins
 * at once took 7.4 s each instead of 0.8) and hold up the event loop of the runs already in their encounter.
 */
export function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>) => {
    const turn = last.then(work);
    last = turn.catch(() => undefined);
    return turn;
  };
}
