import { describe, expect, it } from 'vitest';
import type { Vec3Like } from '../../src/contracts/world.js';
import { mulberry32 } from '../../src/random.js';
import {
  HOSTILE_STATS,
  maxHealth,
  type Mob,
  type MobEvent,
  newMind,
  provoke,
  tickMob,
  walkSpeed,
} from '../../src/world/mob-rules/index.js';

// Each number is the Minecraft Wiki's (Spider); a drift fails here. Grass at y=4, mobs and the player stand at y=5.

const NOON = 6000;
const MIDNIGHT = 18_000;

/** The flat ground plus a block of stone from (4, 5, -3) to (8, top, 3): a cliff the player may stand on. */
const ground = (top: number) => ({
  block: (x: number, y: number, z: number) =>
    y === 4 ? 'grass_block' : y < 4 ? 'stone' : x >= 4 && x <= 8 && z >= -3 && z <= 3 && y <= top ? 'stone' : 'air',
});

function run(options: { top?: number; player: Vec3Like; time: number; ticks: number; provoked?: boolean }) {
  const spider: Mob = { id: 1, name: 'spider', position: { x: 0.5, y: 5, z: 0.5 } };
  const mind = newMind(spider.position);
  if (options.provoked) provoke(spider, mind, 7);
  const random = mulberry32(5);
  const terrain = ground(options.top ?? 4);
  const hits: (MobEvent & { tick: number })[] = [];
  const shown: (MobEvent & { tick: number })[] = [];
  const path: Vec3Like[] = [];
  for (let tick = 1; tick <= options.ticks; tick++) {
    const players = [{ id: 7, position: options.player, targetable: true }];
    for (const event of tickMob(spider, mind, { terrain, tick, timeOfDay: options.time, players, random }))
      if (event.kind === 'hit') hits.push({ ...event, tick });
      else if (event.kind === 'aggressive') shown.push({ ...event, tick });
    path.push({ ...spider.position });
  }
  return { hits, path, shown };
}

describe('spider: its numbers', () => {
  it('has 16 health, bites for 2 (Normal), walks at movement speed 0.3, follows 16 blocks, never burns', () => {
    const stats = HOSTILE_STATS.spider!;
    expect(maxHealth('spider')).toBe(16);
    expect(stats.melee).toEqual({ damage: 2, cooldownTicks: 20 });
    expect(stats.speed).toBe(walkSpeed(0.3));
    expect(stats.followRange).toBe(16);
    expect(stats.burnsInDaylight).toBe(false);
  });
});

describe('spider: at night', () => {
  it('climbs a 3-block wall to a player standing on it, rising a little each tick, and bites it', () => {
    // At the cliff's edge, where the spider sees it from below.
    const { hits, path } = run({ top: 7, player: { x: 4.5, y: 8, z: 0.5 }, time: MIDNIGHT, ticks: 400 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.kind === 'hit' && h.damage === 2)).toBe(true);
    expect(path.at(-1)!.y).toBe(8);
    // On the way up it hung on the wall: heights between the ground and the top.
    expect(path.some((p) => p.y > 5.5 && p.y < 7.5)).toBe(true);
  });

  it('leaps at a player 2 to 4 blocks off: faster than its walk for a few ticks', () => {
    const walk = walkSpeed(0.3) / 20;
    const { path } = run({ player: { x: 8.5, y: 5, z: 0.5 }, time: MIDNIGHT, ticks: 200 });
    const steps = path.slice(1).map((p, i) => Math.hypot(p.x - path[i]!.x, p.z - path[i]!.z));
    expect(Math.max(...steps)).toBeCloseTo(0.4, 10);
    expect(steps.filter((s) => s > walk + 1e-9).length).toBeGreaterThan(2);
  });
});

describe('spider: by day', () => {
  it('leaves a player in the open alone, unless provoked', () => {
    expect(run({ player: { x: 4.5, y: 5, z: 0.5 }, time: NOON, ticks: 400 }).hits).toEqual([]);
    expect(
      run({ player: { x: 4.5, y: 5, z: 0.5 }, time: NOON, ticks: 60, provoked: true }).hits.length,
    ).toBeGreaterThan(0);
  });
});

describe('spider: provoked by day', () => {
  it('shows itself aggressive from the hit until the light makes it let its target go (1 in 100 a tick)', () => {
    const { shown, hits } = run({ player: { x: 4.5, y: 5, z: 0.5 }, time: NOON, ticks: 1000, provoked: true });
    expect(shown[0]).toEqual({ kind: 'aggressive', on: true, tick: 1 });
    const calm = shown.find((e) => e.kind === 'aggressive' && !e.on);
    expect(calm).toBeDefined();
    // Its bites all come while it is after the player; once calm it takes no new target in the light.
    expect(hits.every((h) => h.tick < calm!.tick)).toBe(true);
    expect(shown).toHaveLength(2);
  });

  it('unprovoked in the light, it never shows itself aggressive', () => {
    expect(run({ player: { x: 4.5, y: 5, z: 0.5 }, time: NOON, ticks: 400 }).shown).toEqual([]);
  });
});
