import { describe, expect, it } from 'vitest';
import type { Vec3Like } from '../../src/contracts/world.js';
import { mulberry32 } from '../../src/random.js';
import {
  type BlastedBlocks,
  blastBlocks,
  blastDamage,
  blastDrops,
  exposure,
  HOSTILE_STATS,
  maxHealth,
  type Mob,
  MobDirector,
  type MobHost,
} from '../../src/world/mob-rules/index.js';

// Each number is the Minecraft Wiki's (Creeper, Explosion); a drift fails here.

/** Stone below y=4, grass at 4, air above, plus any cells set: the player and the creeper stand at y=5. */
function flat(extra: Record<string, string> = {}) {
  return {
    block: (x: number, y: number, z: number) =>
      extra[`${x},${y},${z}`] ?? (y === 4 ? 'grass_block' : y < 4 ? 'stone' : 'air'),
  };
}

interface Story {
  /** Damage the player took, tick by tick. */
  hurts: { tick: number; damage: number; cause: string }[];
  swells: { tick: number; lit: boolean }[];
  blast: { tick: number; blocks: BlastedBlocks } | null;
  /** Damage other mobs took, by name. */
  mobHurts: { name: string; damage: number }[];
}

/**
 * A creeper at (0.5, 5, 0.5) at night and a player at `player(tick)`, driven by the MobDirector for `ticks`
 * (the player's path is the test's).
 */
function story(
  player: (tick: number, told: Story) => Vec3Like,
  ticks: number,
  worn: string[] = [],
  others: Mob[] = [],
): Story {
  const terrain = flat();
  const creeper: Mob = { id: 1, name: 'creeper', position: { x: 0.5, y: 5, z: 0.5 } };
  let alive = true;
  const told: Story = { hurts: [], swells: [], blast: null, mobHurts: [] };
  let now = 0;
  const host: MobHost = {
    terrain,
    timeOfDay: () => 18_000,
    players: () => [{ id: 7, position: player(now, told), targetable: true }],
    mobs: () => [...(alive ? [{ ...creeper, position: { ...creeper.position } }] : []), ...others],
    hostilePositions: () => [],
    move: (mob, to) => mob.id === creeper.id && Object.assign(creeper.position, to),
    wornBy: () => worn,
    hurtPlayer: (_player, damage, _by, cause) => told.hurts.push({ tick: now, damage, cause }),
    hurtMob: (mob, damage) => told.mobHurts.push({ name: mob.name, damage }),
    spawn: () => {},
    despawn: () => {},
    swelling: (_mob, lit) => told.swells.push({ tick: now, lit }),
    aggressive: () => {},
    explode: (_mob, blocks) => {
      alive = false;
      told.blast = { tick: now, blocks };
    },
  };
  const director = new MobDirector(mulberry32(3), null);
  for (now = 1; now <= ticks; now++) director.tick(host, now);
  return told;
}

describe('creeper: its numbers', () => {
  it('has 20 health, no armour, 16 blocks of follow range, no sunburn; ignites within 3, defuses beyond 7', () => {
    const stats = HOSTILE_STATS.creeper!;
    expect(maxHealth('creeper')).toBe(20);
    expect(stats.armour).toBe(0);
    expect(stats.followRange).toBe(16);
    expect(stats.burnsInDaylight).toBe(false);
    expect(stats.fuse).toEqual({ igniteWithin: 3, defuseBeyond: 7, ticks: 30, power: 3 });
  });
});

describe('creeper: the explosion', () => {
  it('deals (impact² + impact) / 2 × 7 × 6 + 1 by distance and exposure: 43 point-blank, 16.75 at 3, none past 6', () => {
    expect(blastDamage(3, 0, 1)).toBe(43);
    expect(blastDamage(3, 3, 1)).toBe(16.75);
    expect(blastDamage(3, 6, 1)).toBe(1);
    expect(blastDamage(3, 6.01, 1)).toBe(0);
    expect(blastDamage(3, 2, 0)).toBe(1);
  });

  it('sees all of a player in the open and none of one behind a wall as tall as it', () => {
    const centre = { x: 0.5, y: 5, z: 0.5 };
    expect(exposure(flat(), centre, { x: 3.5, y: 5, z: 0.5 })).toBe(1);
    const wall: Record<string, string> = {};
    for (let z = -3; z <= 3; z++) for (let y = 5; y <= 7; y++) wall[`2,${y},${z}`] = 'stone';
    expect(exposure(flat(wall), centre, { x: 3.5, y: 5, z: 0.5 })).toBe(0);
  });

  it('breaks the grass and dirt around it, never bedrock or obsidian, and about 1 in 3 broken blocks drops', () => {
    const random = mulberry32(11);
    const ground = (_x: number, y: number) =>
      y === 4 ? 'grass_block' : y === 3 ? 'dirt' : y === 2 ? 'obsidian' : y < 2 ? 'bedrock' : 'air';
    let broken = 0;
    let dropped = 0;
    for (let blast = 0; blast < 20; blast++) {
      const blocks = blastBlocks({ block: (x, y) => ground(x, y) }, { x: 0.5, y: 5, z: 0.5 }, 3, random);
      const names = new Set(blocks.broken.map((c) => ground(c.x, c.y)));
      expect([...names].sort()).toEqual(['dirt', 'grass_block']);
      expect(blocks.broken.every((c) => Math.hypot(c.x + 0.5 - 0.5, c.y - 5, c.z + 0.5 - 0.5) < 6)).toBe(true);
      broken += blocks.broken.length;
      dropped += blocks.dropped.length;
    }
    expect(broken / 20).toBeGreaterThan(20);
    expect(dropped / broken).toBeGreaterThan(0.25);
    expect(dropped / broken).toBeLessThan(0.42);
    // A blown-up block drops as if mined without a tool's rule: grass gives dirt, stone cobblestone.
    expect(blastDrops('grass_block')).toEqual(['dirt']);
    expect(blastDrops('stone')).toEqual(['cobblestone']);
  });
});

describe('creeper: its fuse', () => {
  it('walks up to a player standing still, lights within 3 blocks and blows up 30 ticks later: about 16 or more damage', () => {
    const told = story(() => ({ x: 10.5, y: 5, z: 0.5 }), 600);
    expect(told.swells[0]?.lit).toBe(true);
    expect(told.blast!.tick - told.swells[0]!.tick).toBe(29);
    expect(told.hurts).toHaveLength(1);
    expect(told.hurts[0]!.cause).toBe('explosion');
    // Lit within 3 blocks and standing: the player is 1.4 to 3 blocks off when it blows.
    expect(told.hurts[0]!.damage).toBeGreaterThanOrEqual(blastDamage(3, 3, 1));
    expect(told.hurts[0]!.damage).toBeLessThanOrEqual(blastDamage(3, 1, 1));
    expect(told.blast!.blocks.broken.length).toBeGreaterThan(0);
  });

  it('goes out when the player gets past 7 blocks before it burns down: no blast while it walks back up', () => {
    // Stands 2.5 blocks off until the fuse has burnt 10 ticks, then is 11.5 blocks off (out of its 16, in sight).
    const told = story((tick, { swells }) => {
      const litAt = swells[0]?.tick;
      return { x: litAt !== undefined && tick - litAt >= 10 ? 12 : 3, y: 5, z: 0.5 };
    }, 60);
    expect(told.swells.map((s) => s.lit).slice(0, 2)).toEqual([true, false]);
    expect(told.swells[1]!.tick - told.swells[0]!.tick).toBe(10);
    expect(told.swells[0]!.tick).toBeLessThan(30);
    expect(told.blast).toBeNull();
    expect(told.hurts).toEqual([]);
  });

  it('hurts the other mobs it reaches too, by their distance, and not those past 6 blocks', () => {
    // Witches, which the rules do not move: one a block from where the creeper stands and blows, one 20 blocks off.
    const near: Mob = { id: 2, name: 'witch', position: { x: 0.5, y: 5, z: 1.5 } };
    const far: Mob = { id: 3, name: 'witch', position: { x: -19.5, y: 5, z: 0.5 } };
    const told = story(() => ({ x: 2, y: 5, z: 0.5 }), 300, [], [near, far]);
    expect(told.blast).not.toBeNull();
    expect(told.mobHurts).toEqual([{ name: 'witch', damage: blastDamage(3, 1, 1) }]);
  });

  it('armour cuts the blast by the wiki formula (full diamond: 20 points, 8 toughness)', () => {
    const bare = story(() => ({ x: 2, y: 5, z: 0.5 }), 300);
    const diamond = story(() => ({ x: 2, y: 5, z: 0.5 }), 300, [
      'diamond_helmet',
      'diamond_chestplate',
      'diamond_leggings',
      'diamond_boots',
    ]);
    const dealt = bare.hurts[0]!.damage;
    // 20 points and 8 toughness: max(4, 20 − dealt / 4) points of 25.
    expect(diamond.hurts[0]!.damage).toBeCloseTo(dealt * (1 - Math.max(4, 20 - dealt / 4) / 25), 10);
  });
});
