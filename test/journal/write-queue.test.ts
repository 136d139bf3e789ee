import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WriteQueue } from '../../src/journal/write-queue.js';

/** A commit the test answers by hand: each batch it was given, and a way to let the oldest unanswered one commit. */
function manualCommit() {
  const batches: string[][] = [];
  const pending: { resolve: (answers: unknown[]) => void; reject: (error: Error) => void; writes: string[] }[] = [];
  let open = 0;
  let mostOpen = 0;
  const commit = (writes: string[]) => {
    batches.push([...writes]);
    mostOpen = Math.max(mostOpen, ++open);
    return new Promise<unknown[]>((resolve, reject) => pending.push({ resolve, reject, writes }));
  };
  const answer = async () => {
    const next = pending.shift()!;
    open--;
    next.resolve(next.writes.map((w) => `${w}!`));
    await settle();
  };
  const fail = async (error: Error) => {
    open--;
    pending.shift()!.reject(error);
    await settle();
  };
  return { commit, batches, answer, fail, pending, mostOpen: () => mostOpen };
}

/** Lets every promise reaction and queued microtask run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the journal write queue', () => {
  it('sends the writes asked for in one turn as one batch, and answers each its own result', async () => {
    const db = manualCommit();
    const queue = new WriteQueue(db.commit, false);
    const answers = ['a', 'b', 'c'].map((w) => queue.push<string>(w));
    expect(db.batches).toEqual([]);
    await settle();
    expect(db.batches).toEqual([['a', 'b', 'c']]);
    await db.answer();
    expect(await Promise.all(answers)).toEqual(['a!', 'b!', 'c!']);
  });

  it('holds the writes asked for while a batch commits, and sends them together once it has', async () => {
    const db = manualCommit();
    const queue = new WriteQueue(db.commit, false);
    void queue.push('a');
    await settle();
    void queue.push('b');
    await settle();
    void queue.push('c');
    await settle();
    expect(db.batches).toEqual([['a']]);
    let flushed = false;
    const flushing = queue.flush().then(() => (flushed = true));
    await db.answer();
    expect(db.batches).toEqual([['a'], ['b', 'c']]);
    expect(flushed).toBe(false);
    await db.answer();
    await flushing;
    expect(flushed).toBe(true);
  });

  it('makes a write that needs an earlier answer only once that answer came, in a later batch', async () => {
    const db = manualCommit();
    const queue = new WriteQueue(db.commit, false);
    let id: string | undefined;
    void queue.push<string>('action', (answer) => (id = answer));
    void queue.push(() => (id === undefined ? undefined : `settle ${id}`));
    void queue.push('after');
    await settle();
    expect(db.batches).toEqual([['action']]);
    await db.answer();
    expect(db.batches).toEqual([['action'], ['settle action!', 'after']]);
  });

  it('on a journal that writes on call, sends each write at once, one per batch, and keeps order behind a write that waits', async () => {
    const db = manualCommit();
    const queue = new WriteQueue(db.commit, true);
    let id: string | undefined;
    void queue.push<string>('action', (answer) => (id = answer));
    expect(db.batches).toEqual([['action']]);
    void queue.push('other');
    expect(db.batches).toEqual([['action'], ['other']]);
    void queue.push(() => (id === undefined ? undefined : `settle ${id}`));
    void queue.push('after');
    expect(db.batches).toEqual([['action'], ['other']]);
    await db.answer();
    expect(db.batches).toEqual([['action'], ['other'], ['settle action!'], ['after']]);
  });

  it('stops at the first failure: that batch and every later write are refused with it, and so is flush', async () => {
    const db = manualCommit();
    const queue = new WriteQueue(db.commit, false);
    const first = queue.push('a');
    await settle();
    const held = queue.push('b');
    const lost = new Error('lease lost');
    await db.fail(lost);
    await expect(first).rejects.toBe(lost);
    await expect(held).rejects.toBe(lost);
    await expect(queue.push('c')).rejects.toBe(lost);
    await expect(queue.flush()).rejects.toBe(lost);
    expect(queue.failed).toBe(lost);
    expect(db.batches).toEqual([['a']]);
  });

  it('whatever the turns and the answers, commits one batch at a time, in the order asked, each write once', async () => {
    // A script: in each turn some writes are asked for (a few need the answer of the write before them), then some
    // batches are answered.
    const turn = fc.record({
      writes: fc.array(fc.boolean(), { maxLength: 5 }),
      answers: fc.nat({ max: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { minLength: 1, maxLength: 12 }), fc.boolean(), async (turns, onCall) => {
        const db = manualCommit();
        const queue = new WriteQueue(db.commit, onCall);
        const answered = new Map<string, unknown>();
        let n = 0;
        for (const { writes, answers } of turns) {
          for (const needsPrevious of writes) {
            const name = `w${n++}`;
            const previous = `w${n - 2}`;
            const made = needsPrevious && n > 1 ? () => (answered.has(previous) ? name : undefined) : name;
            void queue.push(made, (answer) => answered.set(name, answer));
          }
          await settle();
          for (let i = 0; i < answers && db.pending.length > 0; i++) await db.answer();
        }
        while (db.pending.length > 0) await db.answer();
        await queue.flush();
        const sent = db.batches.flat();
        expect(sent).toEqual(Array.from({ length: n }, (_, i) => `w${i}`));
        expect([...answered]).toEqual(sent.map((w) => [w, `${w}!`]));
        if (!onCall) expect(db.mostOpen()).toBeLessThanOrEqual(1);
        else expect(db.batches.every((b) => b.length === 1)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
