import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { systemClock, ManualClock } from '../../src/clock/index.js';
import { createApiServer } from '../../src/api/server.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { eventHistory, nodeStateHistory } from '../../src/journal/queries.js';
import type { NodeStatesEvent } from '../../src/runtime/hooks.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { openTemp } from './helpers.js';

const plan = {
  planId: 'replayable',
  intentId: 'i',
  steps: [
    { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } },
    { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 5, y: 0, z: 2 } } },
    { stepId: 'dig', type: 'dig_block', args: { position: { x: 5, y: -1, z: 3 } } },
  ],
};

/** Node states after replaying rows in order: the last state of each node of each step. */
function replay(rows: { stepId: string; changes: [string, string][] }[]): Map<string, string> {
  const states = new Map<string, string>();
  for (const row of rows) for (const [path, state] of row.changes) states.set(`${row.stepId} ${path}`, state);
  return states;
}

describe('the journal keeps every node state change, for replay', () => {
  it("records each step's tree changes in the order the runtime made them, beside the user's own hooks", async () => {
    const { journal } = openTemp();
    const clock = new ManualClock();
    const world = SimWorld.create({ clock, inventory: { oak_log: 1 } });
    const seen: NodeStatesEvent[] = [];
    const assembly = await assembleJournaled({
      registry: createDefaultRegistry(),
      world,
      clock,
      journal,
      kind: 'test',
      hooks: { nodeStates: (e) => seen.push({ ...e, changes: [...e.changes] }) },
    });
    const run = await assembly.run(plan);
    let done = false;
    void run.result.then(() => (done = true));
    await clock.runUntil(() => done, 60_000);
    const result = await run.result;
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    await assembly.close();

    const history = (await nodeStateHistory(journal, 'replayable', { after: 0, limit: 10_000 }))!;
    expect(history.more).toBe(false);
    // The same changes the user's hook saw, in the same order, each under the step whose tree made it.
    expect(history.rows.flatMap((r) => r.changes)).toEqual(
      seen.flatMap((e) => e.changes.map((c) => [c.nodePath, c.to])),
    );
    expect([...new Set(history.rows.map((r) => r.stepId))]).toEqual(['planks', 'walk', 'dig']);
    expect([...new Set(history.rows.map((r) => r.tree))]).toEqual(['craft_item', 'navigate', 'dig_block']);
    // Replayed to the end, every step's root succeeded; replayed halfway through a step, its root was running.
    // (A tree's root node is named by the tree.)
    const end = replay(history.rows);
    for (const [step, tree] of [
      ['planks', 'craft_item'],
      ['walk', 'navigate'],
      ['dig', 'dig_block'],
    ])
      expect(end.get(`${step} ${tree}`)).toBe('succeeded');
    const firstOfWalk = history.rows.findIndex((r) => r.stepId === 'walk');
    expect(replay(history.rows.slice(0, firstOfWalk + 1)).get('walk navigate')).toBe('running');
    expect(history.rows.every((r) => r.attemptId !== null)).toBe(true);
    // Each row names the last event before it, so a replay shows the events up to there: the step's start is among
    // them.
    const events = (await eventHistory(journal, 'replayable', { after: 0, limit: 10_000 }))!.rows;
    for (const row of history.rows) {
      const upTo = events.filter((e) => e.id <= row.eventId!);
      expect(
        upTo.some((e) => e.type === 'step.started' && (e.event as { stepId: string }).stepId === row.stepId),
        `${row.stepId} row ${row.id}`,
      ).toBe(true);
      expect(
        upTo.some((e) => e.type === 'step.ended' && (e.event as { stepId: string }).stepId === row.stepId),
        `${row.stepId} row ${row.id}`,
      ).toBe(false);
    }
    expect(history.rows.map((r) => r.eventId)).toEqual([...history.rows.map((r) => r.eventId)].sort((a, b) => a! - b!));
    // And where the bot stood: the walk's last row near its goal.
    const lastWalk = history.rows.findLast((r) => r.stepId === 'walk')!;
    expect(Math.hypot(lastWalk.position!.x - 5.5, lastWalk.position!.z - 2.5)).toBeLessThan(1.5);
  });

  it('serves them paged at GET /api/runs/<planId>/nodes; an unknown plan is 404, a bad parameter 400', async () => {
    const { path, journal } = openTemp();
    const world = SimWorld.create({ clock: systemClock, inventory: { oak_log: 1 } });
    const assembly = await assembleJournaled({
      registry: createDefaultRegistry(),
      world,
      clock: systemClock,
      journal,
      kind: 'test',
    });
    expect((await (await assembly.run(plan)).result).ok).toBe(true);
    await assembly.recorder.flush();
    const api = createApiServer({ journal, journalPath: path, registry: createDefaultRegistry(), token: 't' });
    const { url } = await api.listen(0);
    try {
      const all = (await nodeStateHistory(journal, 'replayable', { after: 0, limit: 10_000 }))!.rows;
      const paged: unknown[] = [];
      for (let next: string | null = '/api/runs/replayable/nodes?limit=3'; next;) {
        const body = (await (await fetch(`${url}${next}`)).json()) as {
          nodeStates: unknown[];
          page: { next: string | null };
        };
        paged.push(...body.nodeStates);
        next = body.page.next;
      }
      expect(paged).toEqual(all);
      const events: unknown[] = [];
      for (let next: string | null = '/api/runs/replayable/events?limit=7'; next;) {
        const body = (await (await fetch(`${url}${next}`)).json()) as {
          events: unknown[];
          page: { next: string | null };
        };
        events.push(...body.events);
        next = body.page.next;
      }
      expect(events).toEqual((await eventHistory(journal, 'replayable', { after: 0, limit: 10_000 }))!.rows);
      expect((await fetch(`${url}/api/runs/nope/events`)).status).toBe(404);
      expect((await fetch(`${url}/api/runs/nope/nodes`)).status).toBe(404);
      expect((await fetch(`${url}/api/runs/replayable/nodes?after=-1`)).status).toBe(400);
      expect((await fetch(`${url}/api/runs/replayable/nodes?from=3`)).status).toBe(400);
      expect((await fetch(`${url}/api/runs/replayable/frames`)).status).toBe(404);
    } finally {
      await api.close();
      await assembly.close();
    }
  });
});
