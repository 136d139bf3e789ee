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

  it('holds its ground past the 5 s position watchdog: a zombie knocked back and walking in each time dies, nothing stuck', async () => {
    const h = await harness({});
    const zombie = h.world.spawnEntity({
      name: 'zombie',
      kind: 'hostile',
      position: { x: 5.5, y: 0, z: 0.5 },
      ai: true,
    });
    const feet = { ...h.world.position() };
    const result = await h.run(plan(attack({ id: zombie })));
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(h.world.entities().map((e) => e.id)).not.toContain(zombie);
    expect(h.events.filter((e) => e.type === 'step.stuck')).toEqual([]);
    const hits = h.world.actuatorLog.filter((entry) => entry.command === 'attack' && entry.outcome === 'ok');
    // Bare-handed, each sprint hit sends it back and it walks in again: the bot never stepped, for longer than 5 s.
    expect(hits.at(-1)!.startedAt - hits[0]!.startedAt).toBeGreaterThan(5_000);
    expect(h.world.actuatorLog.filter((entry) => entry.command === 'move' || entry.command === 'goto')).toEqual([]);
    expect(h.world.position()).toEqual(feet);
  });

  it('still fails stuck.position when the bot can get no nearer its mob and nothing happens: no hit, no step closer', async () => {
    const h = await harness({});
    const cow = h.world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 6.5, y: 0, z: 0.5 } });
    // The pathfinder keeps at a walk that never gets the bot anywhere (pinned against something), until aborted.
    h.world.goto = (_goal, options) =>
      new Promise((_resolve, reject) =>
        options?.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      );
    const result = await h.run(plan(attack({ id: cow })));
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'stuck.position' });
    expect(h.events.filter((e) => e.type === 'step.stuck').map((e) => e.at)).toEqual([5_050, 10_900]);
    expect(h.world.entities().map((e) => e.id)).toContain(cow);
  });

  it('fights the mob it names by id, not the nearest one', async () => {
    const h = await harness({});
    const cow = h.world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 2.5, y: 0, z: 0.5 } });
    const pig = h.world.spawnEntity({ name: 'pig', kind: 'passive', position: { x: -5.5, y: 0, z: 0.5 } });
    const result = await h.run(plan(attack({ id: pig })));
    expect(result.ok).toBe(true);
    // The pig is gone (its porkchop lies where it died); the cow lives.
    expect(
      h.world
        .entities()
        .filter((e) => e.kind !== 'item')
        .map((e) => e.id),
    ).toEqual([cow]);
    expect(
      h.world
        .entities()
        .filter((e) => e.kind === 'item')
        .map((e) => e.item?.name),
    ).toEqual(['porkchop']);
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

  it('breaks off (preempted, saying why) once its health falls below breakOffBelow, the mob still alive; above it, fights on', async () => {
    const h = await harness({ heldItem: 'wooden_sword', inventory: { wooden_sword: 1 } });
    const zombie = h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 2.5, y: 0, z: 0.5 } });
    // Another mob's blow lands after the first swing: 20 to 9.
    const attack = h.world.attack.bind(h.world);
    let swings = 0;
    h.world.attack = async (...args: Parameters<typeof attack>) => {
      const done = await attack(...args);
      if (++swings === 1) h.world.setHealth(9);
      return done;
    };
    const result = await h.run(
      plan({ stepId: 'fight', type: 'attack_entity', args: { target: { id: zombie }, breakOffBelow: 10 } }),
    );
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'preempted',
      detail: match.stringContaining('health 9 is below 10: the fight with the zombie breaks off'),
    });
    expect(swings).toBe(1);
    expect(h.world.entities().map((e) => e.id)).toContain(zombie);

    const onward = await h.run(
      plan({ stepId: 'again', type: 'attack_entity', args: { target: { id: zombie }, breakOffBelow: 8 } }),
    );
    expect(onward.ok, JSON.stringify(onward.steps.map((s) => s.outcome))).toBe(true);
    expect(h.world.entities().map((e) => e.id)).not.toContain(zombie);
  });
});
