import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';
import { match } from '../../test/helpers/matchers.js';

const flee = (args: Record<string, unknown>) => ({ stepId: 'flee', type: 'flee', args });
const distance = (a: { x: number; z: number }, b: { x: number; z: number }) => Math.hypot(a.x - b.x, a.z - b.z);

describe('flee runs end to end on SimWorld', () => {
  it('runs the given distance away from a position, verified', async () => {
    const h = await harness();
    const result = await h.run(plan(flee({ from: { x: -2, y: 0, z: 0 }, distance: 10 })));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true }, attempts: 1 }] });
    expect(distance(h.world.position(), { x: -1.5, z: 0.5 })).toBeGreaterThanOrEqual(9);
    expect(h.world.position().x).toBeGreaterThan(5);
  });

  it('runs from the nearest hostile when no position is given', async () => {
    const h = await harness();
    h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 0.5, y: 0, z: -7.5 } });
    const result = await h.run(plan(flee({ distance: 8 })));
    expect(result.ok).toBe(true);
    expect(h.world.position().z).toBeGreaterThan(6);
  });

  it('turns to another heading when straight away has no path', async () => {
    // Straight away (+x) ends past the island's edge; 60 degrees off it stays on the island.
    const h = await harness({ ground: { radius: 10 } });
    const result = await h.run(plan(flee({ from: { x: -1, y: 0, z: 0 }, distance: 10 })));
    expect(result.ok).toBe(true);
    expect(h.world.actuatorLog.map((entry) => [entry.command, entry.outcome])).toEqual([
      ['goto', 'no_path'],
      ['goto', 'ok'],
    ]);
  });

  it('fails explicitly when boxed in with nowhere to run', async () => {
    const h = await harness({ unbreakable: ['obsidian'] });
    h.world
      .fill({ x: -1, y: 0, z: -1 }, { x: 1, y: 2, z: 1 }, 'obsidian')
      .fill({ x: 0, y: 0, z: 0 }, { x: 0, y: 1, z: 0 }, 'air');
    const result = await h.run(plan(flee({ from: { x: -1, y: 0, z: 0 }, distance: 8 })));
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'stuck.path' });
    expect(h.world.position()).toMatchObject({ x: 0.5, z: 0.5 });
    expect(h.world.liveActuators()).toBe(0);
  });
});

describe('a flight that costs more than it was judged to (issue 30, server tech-tree world 10)', () => {
  const hurtAt = (h: Awaited<ReturnType<typeof harness>>, health: number, afterMs: number) =>
    h.assembly.executor.events.on('event', (event) => {
      if (event.type === 'step.started') h.clock.setTimeout(() => h.world.setHealth(health, 'skeleton'), afterMs);
    });

  it('below `breakOffBelow` the walk is cut at the blow, and the flight fails `preempted`, naming it', async () => {
    const h = await harness({ ground: { radius: 60 } });
    hurtAt(h, 9, 1_500);
    const result = await h.run(plan(flee({ from: { x: -2, y: 0, z: 0 }, distance: 30, breakOffBelow: 11 })));
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'preempted',
      detail: match.stringMatching(/health 9 is below 11: the flight from the hostile breaks off to be judged again/),
    });
    // Cut at the blow: 1.5 s of a walk of some 33 blocks, not its end.
    expect(h.world.position().x).toBeLessThan(15);
    expect(h.world.liveActuators()).toBe(0);
  });

  it('a blow that leaves the health at or above the point does not stop it', async () => {
    const h = await harness({ ground: { radius: 60 } });
    hurtAt(h, 11, 1_500);
    const result = await h.run(plan(flee({ from: { x: -2, y: 0, z: 0 }, distance: 30, breakOffBelow: 11 })));
    expect(result.ok).toBe(true);
    expect(h.world.position().x).toBeGreaterThan(25);
  });
});

describe('a flight that meets a hostile it was not judged with (issue 30, server tech-tree world 1)', () => {
  // A zombie behind the bot, the flight's way east; a creeper ahead of it, 14 blocks on.
  const world = async () => {
    // The safety layer off: it would take the flight over from the zombie and judge it itself.
    const h = await harness({ ground: { radius: 60 } }, { policy: { safety: { enabled: false } } });
    const zombie = h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: -3.5, y: 0, z: 0.5 } });
    const creeper = h.world.spawnEntity({ name: 'creeper', kind: 'hostile', position: { x: 14.5, y: 0, z: 0.5 } });
    return { h, zombie, creeper };
  };
  const args = { from: { x: -3, y: 0, z: 0 }, distance: 12, clearOf: ['zombie'] };

  it('judged with the zombie alone, it stops as the creeper comes within its reach, failing `preempted`, naming it', async () => {
    const { h, zombie } = await world();
    const result = await h.run(plan(flee({ ...args, judgedOn: [zombie] })));
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'preempted',
      detail: match.stringMatching(/a creeper came at the bot in its flight from the zombie: judged again/),
    });
    // Stopped on the way, short of the creeper's fuse range (3 blocks), not walked past it.
    expect(14.5 - h.world.position().x).toBeGreaterThan(3);
    expect(h.world.liveActuators()).toBe(0);
  });

  it('judged with both, or without `judgedOn`, it runs on past the creeper as before', async () => {
    for (const judgedOn of [(ids: number[]) => ({ judgedOn: ids }), () => ({})]) {
      const { h, zombie, creeper } = await world();
      const result = await h.run(plan(flee({ ...args, ...judgedOn([zombie, creeper]) })));
      expect(result.steps[0]!.outcome).toMatchObject({ ok: true });
      expect(h.world.position().x).toBeGreaterThan(20);
    }
  });
});
