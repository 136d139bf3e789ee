import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeFeed, type NodeBatch } from '../../src/api/node-feed.js';
import { ManualClock } from '../../src/clock/index.js';
import type { NodeStateChange } from '../../src/runtime/hooks.js';

const change = (nodePath: string, from: NodeStateChange['from'], to: NodeStateChange['to']): NodeStateChange => ({
  nodePath,
  nodeType: 'action',
  from,
  to,
});

describe('the node feed batches node states for the event stream', () => {
  it('sends one batch per window for every bot, each run (by bot) with each node at its latest state, however many ticks changed it; nothing when nothing changed', async () => {
    const clock = new ManualClock();
    const feed = new NodeFeed(clock, 100);
    const batches: NodeBatch[] = [];
    feed.subscribe((batch) => batches.push(batch));
    // 50 bots' trees ticking 20 times in one window; run ids count per executor, so every bot's first run is 1.
    const hooks = Array.from({ length: 50 }, (_, bot) => feed.hooksFor(`bot-${bot}`));
    for (let tick = 0; tick < 20; tick++) {
      for (const [bot, hook] of hooks.entries()) {
        hook.nodeStates!({
          runId: 1,
          tree: 'navigate',
          at: clock.now(),
          changes: [
            change('navigate/retry', 'ready', 'running'),
            change(
              'navigate/retry/a',
              tick % 2 ? 'running' : 'ready',
              tick % 2 ? 'succeeded' : bot % 2 ? 'failed' : 'running',
            ),
          ],
        });
      }
    }
    await clock.advance(100);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.runs.map((r) => `${r.bot}/${r.runId}`)).toEqual(hooks.map((_, bot) => `bot-${bot}/1`));
    expect(batches[0]!.runs[0]!.states).toEqual({ 'navigate/retry': 'running', 'navigate/retry/a': 'succeeded' });
    await clock.advance(1_000);
    expect(batches).toHaveLength(1);
  });

  it('carries watchdog trips and how a run ended, with the failing node', async () => {
    const clock = new ManualClock();
    const feed = new NodeFeed(clock, 100);
    const batches: NodeBatch[] = [];
    feed.subscribe((batch) => batches.push(batch));
    feed.hooksFor('b').watchdogTrip!({
      runId: 7,
      tree: 'dig_block',
      at: 0,
      kind: 'ttfa',
      failure: {
        ok: false,
        code: 'ttfa_exceeded',
        detail: 'no command',
        nodePath: 'dig_block/sequence',
        limitMs: 2000,
        measuredMs: 2001,
      },
    });
    feed.hooksFor('b').runEnd!({
      runId: 7,
      tree: 'dig_block',
      at: 0,
      startedAt: 0,
      liveActuators: 0,
      outcome: { ok: false, code: 'ttfa_exceeded', detail: 'no command', nodePath: 'dig_block/sequence' },
    });
    await clock.advance(100);
    expect(batches[0]!.runs[0]).toMatchObject({
      runId: 7,
      trips: [{ nodePath: 'dig_block/sequence', kind: 'ttfa', code: 'ttfa_exceeded' }],
      outcome: { ok: false, code: 'ttfa_exceeded', nodePath: 'dig_block/sequence' },
    });
    feed.close();
  });

  it('for any changes of any bots in one window: one batch, each (bot, run) once, each node at the last state it was given', async () => {
    const states = ['ready', 'running', 'succeeded', 'failed'] as const;
    const report = fc.record({
      bot: fc.integer({ min: 0, max: 9 }),
      runId: fc.integer({ min: 1, max: 3 }),
      node: fc.integer({ min: 0, max: 4 }),
      to: fc.constantFrom(...states),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(report, { minLength: 1, maxLength: 300 }), async (reports) => {
        const clock = new ManualClock();
        const feed = new NodeFeed(clock, 100);
        const batches: NodeBatch[] = [];
        feed.subscribe((batch) => batches.push(batch));
        const expected = new Map<string, Record<string, string>>();
        for (const r of reports) {
          feed.hooksFor(`b${r.bot}`).nodeStates!({
            runId: r.runId,
            tree: 't',
            at: clock.now(),
            changes: [change(`t/${r.node}`, 'ready', r.to)],
          });
          const key = `b${r.bot}/${r.runId}`;
          expected.set(key, { ...expected.get(key), [`t/${r.node}`]: r.to });
        }
        await clock.advance(100);
        expect(batches).toHaveLength(1);
        expect(new Map(batches[0]!.runs.map((run) => [`${run.bot}/${run.runId}`, run.states]))).toEqual(expected);
        expect(batches[0]!.runs).toHaveLength(expected.size);
        feed.close();
      }),
      { numRuns: 200 },
    );
  });
});
