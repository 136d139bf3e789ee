import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/executor/events.js';
import { harness, plan } from '../helpers/executor.js';

/**
 * The bot stands at the bottom of a trench 3 deep (x -1 to 1), sent to a spot it has no path to: the recovery ladder
 * digs its way out, each cell an `unstuck` dig_block step. A zombie on the surface at x = -5.5 walks up and drops in.
 */
async function trench(safety: { combat?: 'auto' | 'avoid' } = {}) {
  const blocks = [];
  for (let x = -1; x <= 1; x++) for (let y = -3; y <= -1; y++) blocks.push({ position: { x, y, z: 0 }, name: 'air' });
  const h = await harness({
    ground: { radius: 30 },
    blocks,
    timeOfDay: 18_000,
    inventory: { wooden_sword: 1, wooden_pickaxe: 1 },
    spawn: { x: 0.5, y: -3, z: 0.5 },
  });
  h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: -5.5, y: 0, z: 0.5 }, ai: true });
  const health: number[] = [];
  h.assembly.executor.events.on('event', (event) => {
    if (event.type === 'safety.emergency') health.push(h.world.health());
  });
  const away = { stepId: 'away', type: 'navigate', args: { target: { kind: 'block', x: 20, y: 0, z: 20 } } };
  await h.run({ ...plan(away), ...(safety.combat ? { safety } : {}) }, 300_000);
  const emergencies = h.events.filter((e): e is EventOf<'safety.emergency'> => e.type === 'safety.emergency');
  const started = h.events.filter((e): e is EventOf<'step.started'> => e.type === 'step.started');
  const summary = JSON.stringify(started.map((e) => e.stepId));
  return { h, emergencies, started, health, summary };
}

// A recovery's own steps (unstuck moves, the reach's walk and pillar, a branch's steps) ran unwatched: in the trench
// the zombie dropped in and hit the bot four times, 20 to 9 health, while it dug its unstuck moves, and the safety
// layer answered only after the last of them.
describe("a recovery's helper steps are watched by the safety layer as their step is", () => {
  it('a zombie that comes at the bot while it digs out of a trench is answered within the unstuck move, before its first blow', async () => {
    const { emergencies, started, health, summary } = await trench();
    const first = started.find((e) => e.stepId.includes('/safety-'));
    expect(first?.stepId, summary).toMatch(/^away\/unstuck-dig_block(#\d+)?\/safety-/);
    expect(emergencies[0]?.detail, summary).toMatch(/^fight: a zombie, wooden_sword/);
    expect(health[0], summary).toBe(20);
  });

  it("answers under the plan's combat policy: with `avoid` it never starts a fight", async () => {
    const { emergencies, started, summary } = await trench({ combat: 'avoid' });
    expect(
      started.some((e) => /\/unstuck-dig_block(#\d+)?\/safety-/.test(e.stepId)),
      summary,
    ).toBe(true);
    expect(emergencies.length, summary).toBeGreaterThan(0);
    for (const e of emergencies) expect(e.detail, summary).not.toMatch(/^fight:/);
  });
});
