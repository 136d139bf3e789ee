import { describe, expect, it } from 'vitest';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { harness, plan } from '../helpers/executor.js';

/**
 * A bot at work among four logs around it at night, a creeper 4 blocks off walking up; what it holds is the case's,
 * and `wall` puts a stone wall 1.5 blocks behind the creeper, which stops its knock-back short of its defuse range.
 */
async function creeperAtWork(held: string | null, wall = false) {
  const h = await harness({
    ground: { radius: 60 },
    timeOfDay: 18_000,
    inventory: held ? { [held]: 1 } : {},
    heldItem: held,
  });
  for (const [x, z] of [
    [-3, 0],
    [-3, 8],
    [3, -8],
    [8, 3],
  ] as const)
    h.world.fill({ x, y: 0, z }, { x, y: 0, z }, 'oak_log');
  if (wall) h.world.fill({ x: 6, y: 0, z: -6 }, { x: 6, y: 2, z: 6 }, 'stone');
  const creeper = h.world.spawnEntity({ name: 'creeper', kind: 'hostile', position: { x: 4.5, y: 0, z: 0.5 } });
  const result = await h.run(
    plan({ stepId: 'logs', type: 'collect_block', args: { block: 'oak_log', count: 4 } }),
    300_000,
  );
  const emergencies = h.events.filter(
    (e): e is Extract<ExecutorEvent, { type: 'safety.emergency' }> => e.type === 'safety.emergency',
  );
  return { h, result, creeper, responses: emergencies.map((e) => e.response) };
}

describe('a creeper at work: struck and backed off from, not fled again and again', () => {
  it('with a wooden sword the bot strikes it sprinting as it comes (each hit puts its fuse out) and kills it, unhurt', async () => {
    const { h, result, creeper, responses } = await creeperAtWork('wooden_sword');
    expect(responses).toEqual(['attack_entity']);
    expect(h.world.entities().map((e) => e.id)).not.toContain(creeper);
    expect(h.world.health()).toBe(20);
    expect(result.ok, JSON.stringify(result.steps.map((s) => [s.step.stepId, s.outcome]))).toBe(true);
  });

  it('with a wall behind the creeper (its knock-back stopped short of 7 blocks) the bot is never blasted: it backs off, and its step ends verified', async () => {
    const { h, result, responses } = await creeperAtWork('wooden_sword', true);
    expect(responses[0], JSON.stringify(responses)).toBe('attack_entity');
    expect(h.world.health(), JSON.stringify(responses)).toBe(20);
    expect(result.ok, JSON.stringify(result.steps.map((s) => [s.step.stepId, s.outcome]))).toBe(true);
  });
});
