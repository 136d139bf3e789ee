import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { Vec3Like } from '../../src/contracts/world.js';
import { loadScenario } from '../../src/world/scenario/index.js';
import { simWorldFromScenario } from '../../src/world/sim-scenario.js';
import { SimWorld, settle, track } from '../../src/world/sim/index.js';
import { match } from '../helpers/matchers.js';

const RADIUS = 5;
const BURNS = new Set(['lava', 'fire']);
const HOT_FLOORS = new Set(['magma_block']);
const AIRLIKE = new Set(['air', 'lava', 'fire']);

/** Whether a bot with feet at `at` is hurt there: its body in lava or fire, or standing on magma. */
function hurts(world: SimWorld, at: Vec3Like): boolean {
  const name = (dy: number) => world.blockAt({ x: at.x, y: at.y + dy, z: at.z })!.name;
  return BURNS.has(name(0)) || BURNS.has(name(1)) || HOT_FLOORS.has(name(-1));
}

/** An independent breadth-first oracle: the movement rules of sim-property.test.ts, minus every cell that burns. */
function reachableSafely(world: SimWorld, from: Vec3Like, to: Vec3Like): boolean {
  const name = (x: number, y: number, z: number) => world.blockAt({ x, y, z })!.name;
  const open = (x: number, y: number, z: number) => AIRLIKE.has(name(x, y, z));
  const stand = (x: number, y: number, z: number) =>
    !open(x, y - 1, z) && open(x, y, z) && open(x, y + 1, z) && !hurts(world, { x, y, z });
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
      const [nx, nz] = [x + dx, z + dz];
      let ny: number | null = null;
      if (stand(nx, y, nz)) ny = y;
      else if (open(x, y + 2, z) && stand(nx, y + 1, nz)) ny = y + 1;
      else if (
        open(nx, y, nz) &&
        open(nx, y + 1, nz) &&
        !BURNS.has(name(nx, y, nz)) &&
        !BURNS.has(name(nx, y + 1, nz))
      ) {
        // A fall: through air only, landing at most 3 blocks down.
        for (let d = 1; d <= 3 && ny === null; d++) {
          if (!open(nx, y - d, nz) || BURNS.has(name(nx, y - d, nz))) break;
          if (!open(nx, y - d - 1, nz)) ny = stand(nx, y - d, nz) ? y - d : null;
          if (!open(nx, y - d - 1, nz)) break;
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
  y: fc.integer({ min: -1, max: 3 }),
  z: fc.integer({ min: -RADIUS, max: RADIUS }),
});
const worldArb = fc.record({
  blocks: fc.array(
    fc.record({ position: cellArb, name: fc.constantFrom('stone', 'dirt', 'lava', 'lava', 'fire', 'magma_block') }),
    { maxLength: 90 },
  ),
  goal: cellArb.map((cell) => ({ ...cell, y: Math.max(0, cell.y) })),
});

describe('SimWorld path search keeps out of hazards', () => {
  it('on random worlds with lava, fire and magma, goto reaches the goal exactly when a hazard-free path exists, and the bot is never hurt on the way', async () => {
    let reached = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(worldArb, async ({ blocks, goal }) => {
        const clock = new ManualClock();
        const spawnColumn = (b: { position: Vec3Like }) => b.position.x === 0 && b.position.z === 0;
        const world = SimWorld.create({
          clock,
          ground: { radius: RADIUS },
          blocks: blocks.filter((b) => !spawnColumn(b)),
        });
        const expected = reachableSafely(world, { x: 0, y: 0, z: 0 }, goal);
        const hurtAt: Vec3Like[] = [];
        world.onMoved((p) => {
          const cell = { x: Math.floor(p.x), y: Math.floor(p.y), z: Math.floor(p.z) };
          if (hurts(world, cell)) hurtAt.push(cell);
        });
        const outcome = track(world.goto({ kind: 'block', ...goal }));
        await clock.advance(600 * 232);
        expect(hurtAt).toEqual([]);
        expect(world.health()).toBe(20);
        if (expected) {
          expect(outcome.outcome).toEqual({ state: 'ok' });
          reached++;
        } else {
          expect(outcome.outcome).toMatchObject({ state: 'rejected', code: 'no_path' });
          refused++;
        }
        expect(clock.pendingTimers()).toBe(0);
      }),
      { numRuns: 150, seed: 20261123 },
    );
    expect(reached).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
  });

  it('crosses the lava-river scenario by the bridge 8 blocks aside, as on the embedded server', async () => {
    const clock = new ManualClock();
    const world = simWorldFromScenario(await loadScenario('examples/scenarios/lava-river.json'), { clock });
    const overRiver: Vec3Like[] = [];
    world.onMoved((p) => {
      if (p.x >= 4 && p.x < 7) overRiver.push({ ...p });
    });
    expect(await settle(clock, world.goto({ kind: 'block', x: 10, y: 5, z: 0 }))).toEqual({ state: 'ok' });
    expect(overRiver.length).toBeGreaterThan(0);
    for (const at of overRiver) expect(at).toMatchObject({ y: 5, z: match.toSatisfy((z: number) => z >= 7 && z < 10) });
    expect(world.health()).toBe(20);
  });

  it('refuses a deadly drop: a goal four blocks down a cliff has no path', async () => {
    const clock = new ManualClock();
    const world = SimWorld.create({ clock, ground: { radius: 8 } });
    world
      .fill({ x: -8, y: 0, z: -8 }, { x: 8, y: 3, z: 8 }, 'stone')
      .fill({ x: 2, y: 0, z: -8 }, { x: 8, y: 3, z: 8 }, 'air')
      .teleport({ x: 0, y: 4, z: 0 });
    expect(await settle(clock, world.goto({ kind: 'block', x: 4, y: 0, z: 0 }))).toMatchObject({
      state: 'rejected',
      code: 'no_path',
    });
    expect(world.position()).toEqual({ x: 0.5, y: 4, z: 0.5 });
  });
});

describe('SimWorld hazard damage and escape', () => {
  it('lava burns 4 health at once and every 500 ms while the bot stays in it; leaving stops it', async () => {
    const clock = new ManualClock();
    // Too hungry to heal (below 18 food), so the health shows the burns alone.
    const world = SimWorld.create({ clock, food: 17 });
    const hurt: number[] = [];
    world.events.on('hurt', (health) => hurt.push(health));
    world
      .setBlock({ x: 1, y: -1, z: 0 }, 'lava')
      .setBlock({ x: 1, y: -2, z: 0 }, 'stone')
      .teleport({ x: 1, y: -1, z: 0 });
    expect(world.health()).toBe(16);
    await clock.advance(1000);
    expect(hurt).toEqual([16, 12, 8]);
    world.teleport({ x: 0, y: 0, z: 0 });
    await clock.advance(2000);
    expect(world.health()).toBe(8);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('a bot in the middle of the lava river gets out: its way crosses the fewest lava cells, then keeps out of lava', async () => {
    const clock = new ManualClock();
    const world = simWorldFromScenario(await loadScenario('examples/scenarios/lava-river.json'), { clock });
    world.teleport({ x: 5, y: 4, z: 0 });
    const path: string[] = [];
    world.onMoved((p) => path.push(`${Math.floor(p.x)},${p.y},${Math.floor(p.z)}`));
    expect(await settle(clock, world.goto({ kind: 'block', x: 10, y: 5, z: 0 }))).toEqual({ state: 'ok' });
    // Feet at y=4 are in the river (the banks stand at y=5).
    const inLava = path.filter((cell) => cell.split(',')[1] === '4');
    // One lava cell (4 or 6) on the way to a bank, then the bank: never back into the river.
    expect(inLava).toHaveLength(1);
    expect(path.indexOf(inLava[0]!)).toBe(0);
    expect(world.health()).toBeLessThan(20);
  });

  it('a goto that cannot leave a hazard says where the bot burns', async () => {
    const clock = new ManualClock();
    const world = SimWorld.create({ clock, ground: { radius: 3 }, unbreakable: ['obsidian'] });
    world
      .fill({ x: -1, y: 0, z: -1 }, { x: 1, y: 2, z: 1 }, 'obsidian')
      .fill({ x: 0, y: 0, z: 0 }, { x: 0, y: 1, z: 0 }, 'lava')
      .teleport({ x: 0, y: 0, z: 0 });
    const outcome = await settle(clock, world.goto({ kind: 'xz', x: 6, z: 0 }));
    expect(outcome).toMatchObject({
      state: 'rejected',
      code: 'hazard',
      message: match.stringContaining('the bot stands in lava at 0,0,0 and cannot get out'),
    });
  });
});
