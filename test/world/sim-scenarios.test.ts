import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { PathStatus } from '../../src/contracts/world.js';
import { SCENARIOS, type SimScenario, settle } from '../../src/world/sim/index.js';

function withStatuses(scenario: SimScenario) {
  const statuses: PathStatus[] = [];
  scenario.world.events.on('path', (s) => statuses.push(s));
  return statuses;
}

describe('SimWorld scenarios', () => {
  it('walledIn: goto finds no path; one pillar-up step gets the bot out', async () => {
    const clock = new ManualClock();
    const scenario = SCENARIOS.walledIn({ clock });
    const { world, goal } = scenario;
    const statuses = withStatuses(scenario);
    expect(await settle(clock, world.goto(goal))).toMatchObject({ code: 'no_path' });
    expect(statuses).toEqual(['noPath']);
    expect(await settle(clock, world.dig({ x: 1, y: 0, z: 0 }))).toMatchObject({ code: 'guard_failed' });
    await settle(clock, world.move('jump', 200));
    await settle(clock, world.place({ x: 0, y: 0, z: 0 }, 'cobblestone'));
    await clock.advance(1000);
    expect(await settle(clock, world.goto(goal))).toEqual({ state: 'ok' });
  });

  it('obstacleInPath: goes around the gap when there is one, digs through when there is not', async () => {
    const clock = new ManualClock();
    const detour = SCENARIOS.obstacleInPath({ clock, detour: true });
    expect(await settle(clock, detour.world.goto(detour.goal))).toEqual({ state: 'ok' });

    const wall = SCENARIOS.obstacleInPath({ clock });
    expect(await settle(clock, wall.world.goto(wall.goal))).toMatchObject({ code: 'no_path' });
    await settle(clock, wall.world.goto({ kind: 'block', x: 2, y: 0, z: 0 }));
    await settle(clock, wall.world.dig({ x: 3, y: 0, z: 0 }));
    await settle(clock, wall.world.dig({ x: 3, y: 1, z: 0 }));
    expect(await settle(clock, wall.world.goto(wall.goal))).toEqual({ state: 'ok' });
    expect(wall.world.inventory().dirt).toBe(2);
  });

  it('unreachableTarget: noPath at once, without moving', async () => {
    const clock = new ManualClock();
    const scenario = SCENARIOS.unreachableTarget({ clock });
    const statuses = withStatuses(scenario);
    expect(await settle(clock, scenario.world.goto(scenario.goal))).toMatchObject({ code: 'no_path' });
    expect(statuses).toEqual(['noPath']);
    expect(clock.now()).toBe(0);
    for (const range of [1, 2, 3]) {
      const near = { kind: 'near', x: 6, y: 0, z: 0, range } as const;
      expect(await settle(clock, scenario.world.goto(near))).toMatchObject({ code: 'no_path' });
    }
  });

  it('boxedIn: no path, no dig, no room to jump and pillar', async () => {
    const clock = new ManualClock();
    const { world, goal } = SCENARIOS.boxedIn({ clock });
    expect(await settle(clock, world.goto(goal))).toMatchObject({ code: 'no_path' });
    for (const side of [
      { x: 1, y: 0, z: 0 },
      { x: 0, y: 2, z: 0 },
      { x: 0, y: -1, z: 0 },
    ]) {
      expect(await settle(clock, world.dig(side))).toMatchObject({ code: 'guard_failed' });
    }
    await settle(clock, world.move('jump', 200));
    expect(world.position().y).toBe(0);
    expect(await settle(clock, world.place({ x: 0, y: 0, z: 0 }, 'cobblestone'))).toMatchObject({
      code: 'guard_failed',
    });
  });

  it('flappingGoal: the bot keeps replanning and reversing without arriving', async () => {
    const clock = new ManualClock();
    const scenario = SCENARIOS.flappingGoal({ clock });
    const statuses = withStatuses(scenario);
    const xs: number[] = [];
    scenario.world.onMoved((p) => xs.push(p.x));
    const outcome = await settle(clock, scenario.world.goto(scenario.goal), 30_000);
    expect(outcome.state).toBe('pending');
    expect(statuses.filter((s) => s === 'planned').length).toBeGreaterThan(3);
    let reversals = 0;
    for (let i = 2; i < xs.length; i++)
      if (Math.sign(xs[i]! - xs[i - 1]!) * Math.sign(xs[i - 1]! - xs[i - 2]!) < 0) reversals++;
    expect(reversals).toBeGreaterThan(3);
    expect(scenario.world.position().z).toBeLessThan(3);
    scenario.world.stopMovement();
  });

  it('forest: trees of oak_log to walk to, cobblestone in the inventory, the same layout for the same seed', async () => {
    const clock = new ManualClock();
    const a = SCENARIOS.forest({ clock, seed: 42 });
    const b = SCENARIOS.forest({ clock, seed: 42 });
    const c = SCENARIOS.forest({ clock, seed: 43 });
    const logs = (s: SimScenario) => s.world.findBlocks({ names: ['oak_log'], maxDistance: 32, count: 100 });
    expect(logs(a).length).toBeGreaterThanOrEqual(6 * 4);
    expect(logs(b)).toEqual(logs(a));
    expect(logs(c)).not.toEqual(logs(a));
    expect(a.world.inventory()).toEqual({ cobblestone: 3 });
    expect(await settle(clock, a.world.goto(a.goal))).toEqual({ state: 'ok' });
    const [log] = a.world.findBlocks({ names: ['oak_log'], maxDistance: 4, count: 1 });
    expect(log).toBeDefined();
    expect(await settle(clock, a.world.dig(log!))).toEqual({ state: 'ok' });
  });
});
