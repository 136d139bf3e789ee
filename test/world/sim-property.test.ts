import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { Vec3Like } from '../../src/contracts/world.js';
import { injectWorldFaults, parseFaultSpecs } from '../../src/world/faults/index.js';
import { SCENARIOS, SimWorld, settle, track } from '../../src/world/sim/index.js';

const RADIUS = 5;
const SOLIDS = ['stone', 'dirt', 'bedrock'] as const;

/**
 * An independent breadth-first oracle with the documented movement rules: 2-high body, step up 1 with headroom, drop up
 * to 3.
 */
function reachable(world: SimWorld, from: Vec3Like, to: Vec3Like): boolean {
  const air = (x: number, y: number, z: number) => world.blockAt({ x, y, z })!.name === 'air';
  const stand = (x: number, y: number, z: number) => !air(x, y - 1, z) && air(x, y, z) && air(x, y + 1, z);
  const seen = new Set([`${from.x},${from.y},${from.z}`]);
  const queue: Vec3Like[] = [from];
  while (queue.length > 0) {
    const { x, y, z } = queue.shift()!;
    if (x === to.x && y === to.y && z === to.z) return true;
    for (const [dx, dz] of [
      [0, -1],
      [1, 0],
      [0, 1],
      [-1, 0],
    ] as const) {
      const nx = x + dx;
      const nz = z + dz;
      let ny: number | null = null;
      if (stand(nx, y, nz)) ny = y;
      else if (air(x, y + 2, z) && stand(nx, y + 1, nz)) ny = y + 1;
      else if (air(nx, y, nz) && air(nx, y + 1, nz)) {
        for (let d = 1; d <= 3 && ny === null; d++) {
          if (!air(nx, y - d, nz)) break;
          if (stand(nx, y - d, nz)) ny = y - d;
        }
      }
      const key = `${nx},${ny},${nz}`;
      if (ny !== null && !seen.has(key)) {
        seen.add(key);
        queue.push({ x: nx, y: ny, z: nz });
      }
    }
  }
  return false;
}

const cellArb = fc.record({
  x: fc.integer({ min: -RADIUS, max: RADIUS }),
  y: fc.integer({ min: 0, max: 4 }),
  z: fc.integer({ min: -RADIUS, max: RADIUS }),
});
const worldArb = fc.record({
  blocks: fc.array(fc.record({ position: cellArb, name: fc.constantFrom(...SOLIDS) }), { maxLength: 120 }),
  goal: cellArb,
});

describe('SimWorld goto property', () => {
  it('on random block worlds, goto reaches the goal exactly when a path exists, else rejects no_path; never hangs', async () => {
    let reached = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(worldArb, async ({ blocks, goal }) => {
        const clock = new ManualClock();
        const world = SimWorld.create({
          clock,
          ground: { radius: RADIUS },
          blocks: blocks.filter((b) => b.position.x !== 0 || b.position.z !== 0),
        });
        const expected = reachable(world, { x: 0, y: 0, z: 0 }, goal);
        const outcome = track(world.goto({ kind: 'block', ...goal }));
        // Every path on this island is far shorter than 600 blocks; a minute of virtual time covers the longest.
        await clock.advance(600 * 232);
        expect(outcome.outcome.state).not.toBe('pending');
        if (expected) {
          expect(outcome.outcome).toEqual({ state: 'ok' });
          expect(world.position()).toEqual({ x: goal.x + 0.5, y: goal.y, z: goal.z + 0.5 });
          reached++;
        } else {
          expect(outcome.outcome).toMatchObject({ state: 'rejected', code: 'no_path' });
          expect(world.position()).toEqual({ x: 0.5, y: 0, z: 0.5 });
          refused++;
        }
        expect(world.liveActuators()).toBe(0);
        expect(clock.pendingTimers()).toBe(0);
      }),
      { numRuns: 150, seed: 20261122 },
    );
    expect(reached).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
  });
});

describe('SimWorld determinism', () => {
  async function script(seed: number) {
    const clock = new ManualClock();
    const { world: sim, goal } = SCENARIOS.forest({ clock, seed });
    const world = injectWorldFaults(sim, parseFaultSpecs(['dig=flaky:0.3']), { clock, seed });
    await settle(clock, world.goto(goal));
    for (const log of world.findBlocks({ names: ['oak_log'], maxDistance: 4.5, count: 6 }))
      await settle(clock, world.dig(log));
    await settle(clock, world.craft('oak_planks', 1));
    await settle(clock, world.goto({ kind: 'block', x: 0, y: 0, z: 0 }));
    return {
      log: sim.actuatorLog.map((e) => ({ ...e })),
      observation: await world.observe(),
      injections: world.injections,
    };
  }

  it('the same seed gives the same actuator log, faults and final state; another seed differs', async () => {
    const first = await script(5);
    expect(first.log.filter((e) => e.command === 'dig').length).toBeGreaterThan(0);
    expect(first.injections.length).toBeGreaterThan(0);
    expect(await script(5)).toEqual(first);
    expect(await script(6)).not.toEqual(first);
  });
});
