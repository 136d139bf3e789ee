import { describe, expect, it } from 'vitest';
import { JoinGate } from '../../src/cli/worker/join.js';

/** A join that ends when the test says so. */
function pendingJoin(log: string[], name: string) {
  let finish!: () => void;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const join = async () => {
    log.push(`start ${name}`);
    await ended;
    log.push(`end ${name}`);
    return name;
  };
  return { join, finish };
}

describe('a worker lets a few logins run at once (JoinGate)', () => {
  it('starts at most its limit, the next in order as one ends, and a join cancelled while it waits never starts', async () => {
    const gate = new JoinGate(2);
    const log: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => pendingJoin(log, n));
    const keep = new AbortController();
    const cancelC = new AbortController();
    const ra = gate.run(a!.join, keep.signal);
    const rb = gate.run(b!.join, keep.signal);
    const rc = gate.run(c!.join, cancelC.signal);
    const rd = gate.run(d!.join, keep.signal);
    await Promise.resolve();
    expect(log).toEqual(['start a', 'start b']);
    cancelC.abort(new Error('fenced while waiting'));
    await expect(rc).rejects.toThrow('fenced while waiting');
    a!.finish();
    expect(await ra).toBe('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['start a', 'start b', 'end a', 'start d']);
    b!.finish();
    d!.finish();
    expect(await Promise.all([rb, rd])).toEqual(['b', 'd']);
    expect(log).not.toContain('start c');
  });

  it('a failed join gives its turn back', async () => {
    const gate = new JoinGate(1);
    const signal = new AbortController().signal;
    await expect(gate.run(() => Promise.reject(new Error('no spawn')), signal)).rejects.toThrow('no spawn');
    expect(await gate.run(() => Promise.resolve('next'), signal)).toBe('next');
  });
});
