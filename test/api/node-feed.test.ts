import { describe, expect, it } from 'vitest';
import { NodeFeed, type NodeBatch } from '../../src/api/node-feed.js';
import { ManualClock } from '../../src/clock/index.js';
import type { NodeStateChange } from '../../src/runtime/hooks.js';

const change = (nodePath: string, from: NodeStateChange['from'], to: NodeStateChange['to']): NodeStateChange => ({ nodePath, nodeType: 'action', from, to });

describe('the node feed batches node states for the event stream', () => {
  it('sends one batch per window with each node at its latest state, however many ticks changed it; nothing when nothing changed', async () => {
    const clock = new ManualClock();
    const feed = new NodeFeed(clock, 100);
    const batches: NodeBatch[] = [];
    feed.subscribe((batch) => batches.push(batch));
    // 50 bots' trees ticking 20 times in one window.
    for (let tick = 0; tick < 20; tick++) {
      for (let runId = 1; runId <= 50; runId++) {
        feed.hooks.nodeStates!({ runId, tree: 'navigate', at: clock.now(), changes: [change('navigate/retry', 'ready', 'running'), change('navigate/retry/a', tick % 2 ? 'running' : 'ready', tick % 2 ? 'succeeded' : 'running')] });
      }
    }
    await clock.advance(100);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.runs).toHaveLength(50);
    expect(batches[0]!.runs[0]!.states).toEqual({ 'navigate/retry': 'running', 'navigate/retry/a': 'succeeded' });
    await clock.advance(1_000);
    expect(batches).toHaveLength(1);
  });

  it('carries watchdog trips and how a run ended, with the failing node', async () => {
    const clock = new ManualClock();
    const feed = new NodeFeed(clock, 100);
    const batches: NodeBatch[] = [];
    feed.subscribe((batch) => batches.push(batch));
    feed.hooks.watchdogTrip!({ runId: 7, tree: 'dig_block', at: 0, kind: 'ttfa', failure: { ok: false, code: 'ttfa_exceeded', detail: 'no command', nodePath: 'dig_block/sequence', limitMs: 2000, measuredMs: 2001 } });
    feed.hooks.runEnd!({ runId: 7, tree: 'dig_block', at: 0, startedAt: 0, liveActuators: 0, outcome: { ok: false, code: 'ttfa_exceeded', detail: 'no command', nodePath: 'dig_block/sequence' } });
    await clock.advance(100);
    expect(batches[0]!.runs[0]).toMatchObject({ runId: 7, trips: [{ nodePath: 'dig_block/sequence', kind: 'ttfa', code: 'ttfa_exceeded' }], outcome: { ok: false, code: 'ttfa_exceeded', nodePath: 'dig_block/sequence' } });
    feed.close();
  });
});
