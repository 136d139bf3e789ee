import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inPool, oneAtATime } from '../../bench/night-pool.js';

/*
 * Issue 30 §5: the night bench's `--jobs N` runs N runs at once. The pool must start no more than N, start every
 * task once, hand each row its own runs back in order whatever order they finish in, and never leave a run going
 * behind a failure (a server still up would outlive the bench).
 */

/** Tasks the test finishes by hand, in any order it likes, counting how many are under way at once. */
function heldTasks(count: number) {
  const state = { running: 0, most: 0, started: [] as number[] };
  const finishers = new Map<number, { resolve: (v: string) => void; reject: (e: Error) => void }>();
  const tasks = Array.from({ length: count }, (_, index) => () => {
    state.running++;
    state.most = Math.max(state.most, state.running);
    state.started.push(index);
    return new Promise<string>((resolve, reject) => finishers.set(index, { resolve, reject })).finally(
      () => state.running--,
    );
  });
  return { state, finishers, tasks };
}

/** Lets every settled promise's continuations run (no time passes). */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('the night bench’s pool of runs', () => {
  it('runs at most N at once and returns the results in the tasks’ order, whatever order they finish in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 5 }),
        fc.infiniteStream(fc.nat()),
        async (count, jobs, picks) => {
          const { state, finishers, tasks } = heldTasks(count);
          const pooled = inPool(tasks, jobs);
          const picker = picks[Symbol.iterator]();
          await settle();
          while (finishers.size > 0) {
            expect(state.running).toBeLessThanOrEqual(jobs);
            expect(state.running).toBe(Math.min(jobs, finishers.size));
            const waiting = [...finishers.keys()];
            const index = waiting[picker.next().value % waiting.length]!;
            finishers.get(index)!.resolve(`run ${index}`);
            finishers.delete(index);
            await settle();
          }
          expect(await pooled).toEqual(tasks.map((_, i) => `run ${i}`));
          expect(state.started).toEqual(tasks.map((_, i) => i));
          expect(state.most).toBe(Math.min(jobs, count));
        },
      ),
    );
  });

  it('after a failure starts nothing new and rejects only once the runs under way have ended', async () => {
    const { state, finishers, tasks } = heldTasks(6);
    let outcome: string | null = null;
    const pooled = inPool(tasks, 2).then(
      () => (outcome = 'resolved'),
      (error: Error) => (outcome = error.message),
    );
    await settle();
    finishers.get(0)!.reject(new Error('server failed to start'));
    await settle();
    expect(state.started).toEqual([0, 1]);
    expect(outcome).toBeNull();
    finishers.get(1)!.resolve('run 1');
    await pooled;
    expect(outcome).toBe('server failed to start');
    expect(state.started).toEqual([0, 1]);
  });

  it('refuses a number of jobs that is not a whole number of 1 or more, naming it', async () => {
    await expect(inPool([], 0)).rejects.toThrow('jobs must be a whole number of 1 or more (got 0)');
  });

  it('sets runs up one at a time, in the order they asked, a failed set-up letting the next one through', async () => {
    const gate = oneAtATime();
    const { state, finishers, tasks } = heldTasks(3);
    const through = tasks.map((task) => gate(task).catch((error: Error) => error.message));
    await settle();
    expect(state.started).toEqual([0]);
    finishers.get(0)!.reject(new Error('the server did not start'));
    await settle();
    expect(state.started).toEqual([0, 1]);
    finishers.get(1)!.resolve('joined 1');
    await settle();
    expect(state.started).toEqual([0, 1, 2]);
    expect(state.most).toBe(1);
    finishers.get(2)!.resolve('joined 2');
    expect(await Promise.all(through)).toEqual(['the server did not start', 'joined 1', 'joined 2']);
  });
});
