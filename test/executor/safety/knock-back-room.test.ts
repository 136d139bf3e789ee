import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock/index.js';
import { assess } from '../../../src/executor/safety/assess.js';
import { contactShare, KNOCKED_BACK } from '../../../src/executor/safety/contact.js';
import { knockBackRoom, observeEncounter, weaponStats } from '../../../src/executor/safety/encounter.js';
import { SimWorld } from '../../../src/world/sim/index.js';

/*
 * Issue 30 §1: on rough ground a sprint hit's knock-back stops short at a tree, a wall or the hill's next step up, and
 * the zombie is back in reach sooner than on flat open ground, where the contact share was measured. The estimate
 * reads the open ground behind where the bot strikes each walker; flat open ground reads the whole knock-back, so the
 * night bench's flat-ground fights are judged as before.
 */

function field(build: (world: SimWorld) => void = () => {}) {
  const world = SimWorld.create({ clock: new ManualClock(), ground: { radius: 20 }, timeOfDay: 18_000 });
  build(world);
  world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 4.5, y: 0, z: 0.5 } });
  world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: -3.5, y: 0, z: 0.5 } });
  return world;
}
const terrain = (world: SimWorld) => ({
  block: (x: number, y: number, z: number) => world.blockAt({ x, y, z })?.name ?? null,
});

describe('the knock-back room behind a walker', () => {
  it('on flat open ground, the whole knock-back; a trunk at x 5 stops it after 1 block, a step up the hill at x 6 after 2', () => {
    const bot = { x: 0.5, y: 0, z: 0.5 };
    const zombie = { x: 4.5, y: 0, z: 0.5 };
    expect(knockBackRoom(terrain(field()), bot, zombie)).toBe(KNOCKED_BACK);
    const tree = field((w) => w.fill({ x: 5, y: 0, z: 0 }, { x: 5, y: 3, z: 0 }, 'oak_log'));
    expect(knockBackRoom(terrain(tree), bot, zombie)).toBe(1);
    const hill = field((w) => w.fill({ x: 6, y: 0, z: -3 }, { x: 9, y: 0, z: 3 }, 'dirt'));
    expect(knockBackRoom(terrain(hill), bot, zombie)).toBe(2);
    // A step up right where the zombie is struck: it stands on it, and the hill's next step is further.
    expect(knockBackRoom(terrain(hill), bot, { x: 7.5, y: 1, z: 0.5 })).toBe(2);
  });

  it('a zombie back sooner lands more of its blows: the share grows as the room shrinks, to every blow at most', () => {
    expect(contactShare('zombie', KNOCKED_BACK)).toBe(contactShare('zombie'));
    expect(contactShare('zombie', 1)).toBeGreaterThan(contactShare('zombie'));
    expect(contactShare('zombie', 0)).toBeLessThanOrEqual(1);
    expect(contactShare('spider', 1)).toBeGreaterThan(contactShare('spider'));
  });

  it('the estimate of two zombies with a wooden sword rises with a wall behind one; on open ground it is as before', () => {
    const open = observeEncounter(field(), 5);
    expect(open.hostiles.every((h) => h.knockBackRoom === undefined)).toBe(true);
    const walled = observeEncounter(
      field((w) => w.fill({ x: 5, y: 0, z: -3 }, { x: 5, y: 2, z: 3 }, 'stone')),
      5,
    );
    expect(walled.hostiles.map((h) => h.knockBackRoom)).toEqual([1, undefined]);
    const settings = { combat: 'auto' as const, fightHealthFloor: 6 };
    const kit = (seen: typeof open) => ({ ...seen, bot: { ...seen.bot, held: 'wooden_sword' } });
    const flat = assess(kit(open), settings, weaponStats).fight!.expectedDamage;
    const rough = assess(kit(walled), settings, weaponStats).fight!.expectedDamage;
    expect(rough).toBeGreaterThan(flat);
  });
});
