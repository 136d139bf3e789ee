import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';
import { match } from '../../test/helpers/matchers.js';

const attack = (target: { id: number } | { name: string }, within?: number) => ({
  stepId: 'fight',
  type: 'attack_entity',
  args: { target, ...(within ? { within } : {}) },
});

describe('attack_entity runs end to end on SimWorld', () => {
  it('kills the nearest zombie, walking up to it; a hostile nearby does not make the bot flee its own fight', async () => {
    const h = await harness({});
    const far = h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 9.5, y: 0, z: 0.5 } });
    const near = h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 4.5, y: 0, z: 2.5 } });
    const result = await h.run(plan(attack({ name: 'zombie' })));
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    const alive = h.world.entities().map((e) => e.id);
    expect(alive).toContain(far);
    expect(alive).not.toContain(near);
    expect(h.events.filter((e) => e.type === 'safety.emergency' && e.signal === 'hostile')).toEqual([]);
    const hits = h.world.actuatorLog.filter((entry) => entry.command === 'attack' && entry.outcome === 'ok');
    // Alone, the zombie leaves time to jump: every hit is critical. A bare hand deals 1, 1.5 critical, which a zombie's
    // 2 armour points cut to 1.425 (Minecraft Wiki, Zombie, Armor and Damage#Critical_hit): 15 hits.
    expect(hits).toHaveLength(15);
    expect(hits.every((hit) => hit.detail.endsWith('(critical)'))).toBe(true);
    expect(h.world.actuatorLog.some((entry) => entry.command === 'goto')).toBe(true);
  });

  it('swings a stone sword at full charge, 0.625 s apart at least, jumping for critical hits: three kill a zombie (7.38 each after its armour, 4.92 plain)', async () => {
    const h = await harness({ heldItem: 'stone_sword', inventory: { stone_sword: 1 } });
    const zombie = h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 2.5, y: 0, z: 0.5 } });
    const result = await h.run(plan(attack({ id: zombie })));
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    const hits = h.world.actuatorLog.filter((entry) => entry.command === 'attack' && entry.outcome === 'ok');
    expect(hits).toHaveLength(3);
    const gaps = hits.slice(1).map((hit, i) => hit.startedAt - hits[i]!.startedAt);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(625);
  });

  it('fights the mob it names by id, not the nearest one', async () => {
    const h = await harness({});
    const cow = h.world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 2.5, y: 0, z: 0.5 } });
    const pig = h.world.spawnEntity({ name: 'pig', kind: 'passive', position: { x: -5.5, y: 0, z: 0.5 } });
    const result = await h.run(plan(attack({ id: pig })));
    expect(result.ok).toBe(true);
    expect(h.world.entities().map((e) => e.id)).toEqual([cow]);
  });

  it('fails with the reason when no such mob is in sight, and refuses a player', async () => {
    const h = await harness({});
    h.world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 30.5, y: 0, z: 0.5 } });
    const none = await h.run(plan(attack({ name: 'cow' })));
    expect(none.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: match.stringContaining('no cow alive within 16 blocks'),
    });
    const player = h.world.spawnEntity({ name: 'player', kind: 'player', position: { x: 2.5, y: 0, z: 0.5 } });
    const refused = await h.run(plan(attack({ id: player })));
    expect(refused.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'guard_failed',
      detail: match.stringContaining('is a player'),
    });
    expect(h.world.actuatorLog.filter((entry) => entry.command === 'attack')).toEqual([]);
  });
});
