import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';

const attack = (stepId: string, id: number) => ({ stepId, type: 'attack_entity', args: { target: { id } } });

describe('attack_entity against a crowd on SimWorld, zombies hunting the bot at night', () => {
  it('a stone sword kills three zombies from full health and the bot loses little: it strikes whichever is in reach and backs away from the crowd between swings', async () => {
    const h = await harness({ timeOfDay: 18_000, heldItem: 'stone_sword', inventory: { stone_sword: 1 } });
    const zombies = [
      { x: 6.5, z: 0.5 },
      { x: 5.5, z: 4.5 },
      { x: 7.5, z: -3.5 },
    ].map(({ x, z }) => h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x, y: 0, z }, ai: true }));
    const alive = () => h.world.entities().filter((e) => e.name === 'zombie');
    // As the safety fast path does: a fight at one mob, round after round, while any is left.
    for (let round = 0; round < zombies.length && alive().length > 0; round++) {
      const result = await h.run(plan(attack(`fight-${round}`, alive()[0]!.id)));
      expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    }
    expect(alive()).toEqual([]);
    // Following each knocked-back zombie into the other two (the fight before this skill) cost all 20.
    expect(h.deaths).toEqual([]);
    expect(h.world.health()).toBeGreaterThanOrEqual(14);
    const log = h.world.actuatorLog;
    const hits = log.filter((entry) => entry.command === 'attack' && entry.outcome === 'ok');
    expect(new Set(hits.map((hit) => hit.detail.split(' ')[1])).size).toBe(3);
    expect(log.some((entry) => entry.command === 'move' && entry.detail.startsWith('back'))).toBe(true);
  });
});
