import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/clock/index.js';
import type { EventOf, ExecutorEvent } from '../../src/executor/events.js';
import { IdempotencyStore } from '../../src/executor/idempotency.js';
import { harness, plan } from '../helpers/executor.js';

const walk = (stepId: string, x: number, idempotencyKey?: string) => ({
  stepId,
  type: 'navigate',
  args: { target: { kind: 'near', x, y: 0, z: 0, range: 1 } },
  ...(idempotencyKey ? { idempotencyKey } : {}),
});

/** How the journal answers a flush asked right after an event of this type: durable after a lag of clock time, or never. */
type Answer = { lagMs: number } | { rejects: Error };

/** A journal behind a durability barrier: each flush is answered as `answer` says for the event emitted last. */
function laggingJournal(clock: ManualClock, answer: (lastEvent: string) => Answer) {
  let last = '(none)';
  let seen = 0;
  /** Each flush: the event emitted last before it was asked (its type and index in the run's events), when it was asked and when it was durable. */
  const flushes: { after: string; afterIndex: number; askedAt: number; durableAt?: number }[] = [];
  return {
    flushes,
    observe: (event: ExecutorEvent) => {
      last = event.type;
      seen++;
    },
    durability: {
      flush: () =>
        new Promise<void>((resolve, reject) => {
          const flush: (typeof flushes)[number] = { after: last, afterIndex: seen - 1, askedAt: clock.now() };
          flushes.push(flush);
          const answered = answer(last);
          if ('rejects' in answered) return reject(answered.rejects);
          clock.setTimeout(() => {
            flush.durableAt = clock.now();
            resolve();
          }, answered.lagMs);
        }),
    },
  };
}

async function setup(answer: (lastEvent: string) => Answer) {
  let journal!: ReturnType<typeof laggingJournal>;
  const h = await harness({ recordActuatorLog: true }, (clock) => {
    journal = laggingJournal(clock, answer);
    return { durability: journal.durability };
  });
  h.assembly.executor.events.on('event', journal.observe);
  return { h, journal };
}

const ofType = <T extends ExecutorEvent['type']>(events: readonly ExecutorEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type);

describe('durability barrier', () => {
  it("a late flush after attempt.started delays the attempt's first actuator until the journal has it", async () => {
    const { h, journal } = await setup((last) => ({ lagMs: last === 'attempt.started' ? 700 : 0 }));
    const result = await h.run(plan(walk('east', 4)));
    expect(result.ok).toBe(true);
    const [attempt] = ofType(h.events, 'attempt.started');
    const flush = journal.flushes.find((f) => f.after === 'attempt.started')!;
    expect(flush.askedAt).toBe(attempt!.at);
    expect(flush.durableAt).toBe(attempt!.at + 700);
    expect(h.world.actuatorLog.length).toBeGreaterThan(0);
    for (const entry of h.world.actuatorLog) expect(entry.startedAt).toBeGreaterThanOrEqual(flush.durableAt!);
  });

  it('a flush that rejects before an attempt ends the step journal_unavailable without acting, and the run with it', async () => {
    const unreachable = new Error('database unreachable');
    const { h } = await setup((last) => (last === 'attempt.started' ? { rejects: unreachable } : { lagMs: 0 }));
    const result = await h.run(plan(walk('east', 4), walk('west', -2)));
    expect(h.world.actuatorLog).toEqual([]);
    expect(result).toMatchObject({ ok: false, code: 'journal_unavailable' });
    expect(result.steps.map((r) => [r.step.stepId, r.outcome.ok || r.outcome.code])).toEqual([
      ['east', 'journal_unavailable'],
    ]);
    expect(result.detail).toContain('database unreachable');
    expect(ofType(h.events, 'step.started').map((e) => e.stepId)).toEqual(['east']);
  });

  it('a flush rejected because this worker lost its lease ends the step lease_lost', async () => {
    const lost = Object.assign(new Error('the lease on bot-1 is held by worker-2'), { code: 'lease_lost' });
    const { h } = await setup(() => ({ rejects: lost }));
    const result = await h.run(plan(walk('east', 4)));
    expect(h.world.actuatorLog).toEqual([]);
    expect(result).toMatchObject({ ok: false, code: 'lease_lost' });
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'lease_lost' });
  });

  it("the next step never starts before the previous step's end is durable", async () => {
    const { h, journal } = await setup((last) => ({ lagMs: last === 'step.ended' ? 900 : 0 }));
    const result = await h.run(plan(walk('east', 4), walk('west', -2), walk('home', 0)));
    expect(result.ok).toBe(true);
    const starts = ofType(h.events, 'step.started');
    const endFlushes = journal.flushes.filter((f) => f.after === 'step.ended');
    expect(endFlushes).toHaveLength(3);
    for (const [i, start] of starts.slice(1).entries())
      expect(start.at).toBeGreaterThanOrEqual(endFlushes[i]!.durableAt!);
    for (const [i, end] of ofType(h.events, 'step.ended').entries()) expect(endFlushes[i]!.askedAt).toBe(end.at);
  });

  it("a step's end that cannot be made durable ends the run: the step keeps its outcome, and no further step starts", async () => {
    const unreachable = new Error('connection refused');
    const { h } = await setup((last) => (last === 'step.ended' ? { rejects: unreachable } : { lagMs: 0 }));
    const result = await h.run(plan(walk('east', 4), walk('west', -2)));
    expect(result).toMatchObject({ ok: false, code: 'journal_unavailable' });
    expect(result.steps.map((r) => [r.step.stepId, r.outcome.ok])).toEqual([['east', true]]);
    expect(ofType(h.events, 'step.started').map((e) => e.stepId)).toEqual(['east']);
    const ended = ofType(h.events, 'step.ended')[0]!;
    for (const entry of h.world.actuatorLog) expect(entry.startedAt).toBeLessThanOrEqual(ended.at);
  });

  it('an idempotency claim that cannot be written starts nothing: the step ends journal_unavailable', async () => {
    const ledger = new IdempotencyStore();
    ledger.claim = () => Promise.reject(new Error('database unreachable'));
    const h = await harness({ recordActuatorLog: true }, { idempotency: ledger });
    const result = await h.run(plan(walk('east', 4, 'k'), walk('west', -2)));
    expect(result).toMatchObject({ ok: false, code: 'journal_unavailable' });
    expect(h.events.some((e) => e.type === 'step.started')).toBe(false);
    expect(h.world.actuatorLog).toEqual([]);
  });
});

const pool = fc.constantFrom(
  walk('walk', 3),
  walk('walk', -3),
  { stepId: 'dig', type: 'dig_block', args: { position: { x: 2, y: 0, z: 2 }, block: 'dirt' } },
  { stepId: 'place', type: 'place_block', args: { position: { x: -2, y: 0, z: 0 }, item: 'cobblestone' } },
  // Sticks need planks first: a sub-goal, a nested step with attempts and an end of its own.
  { stepId: 'sticks', type: 'craft_item', args: { item: 'stick', count: 4 } },
);

describe('durability barrier as a property', () => {
  it('over generated plans and flush lags, nothing acts and no step starts while a flush after attempt.started or step.ended is pending', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(pool, { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 8, maxLength: 8 }),
        async (steps, lags) => {
          let n = 0;
          let journal!: ReturnType<typeof laggingJournal>;
          const h = await harness(
            {
              recordActuatorLog: true,
              ground: { radius: 6 },
              blocks: [{ position: { x: 2, y: 0, z: 2 }, name: 'dirt' }],
              inventory: { cobblestone: 4, oak_log: 2 },
            },
            (clock) => {
              journal = laggingJournal(clock, () => ({ lagMs: lags[n++ % lags.length]! }));
              return { durability: journal.durability };
            },
          );
          h.assembly.executor.events.on('event', journal.observe);
          await h.run(plan(...steps.map((step, i) => ({ ...step, stepId: `${step.stepId}${i}` }))));
          for (const flush of journal.flushes) {
            // What came after the flush was asked, and before it was durable.
            const early = h.events.filter((e, k) => k > flush.afterIndex && e.at < flush.durableAt!);
            expect(early.filter((e) => e.type === 'step.started' || e.type === 'step.firstAction')).toEqual([]);
            const acting = h.world.actuatorLog.filter(
              (entry) => entry.startedAt > flush.askedAt && entry.startedAt < flush.durableAt!,
            );
            expect(acting, `actuators while the flush after ${flush.after} was pending`).toEqual([]);
          }
          expect(journal.flushes.filter((f) => f.after === 'attempt.started')).toHaveLength(
            ofType(h.events, 'attempt.started').length,
          );
          expect(journal.flushes.filter((f) => f.after === 'step.ended')).toHaveLength(
            ofType(h.events, 'step.ended').length,
          );
        },
      ),
      { numRuns: 100, seed: 5 },
    );
  }, 120_000);
});
