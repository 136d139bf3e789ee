import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/clock/index.js';
import type { AttackOptions, LivingEntity, Vec3Like, WorldPort } from '../../src/contracts/world.js';
import type { EmbeddedWorld } from '../../src/world/embedded/index.js';
import { attackCooldownMs, TICK_MS } from '../../src/world/mob-rules/index.js';
import { parseScenario } from '../../src/world/scenario/index.js';
import { onClock, worldPair } from '../helpers/world-pair.js';

/*
 * A hit's knockback and a mob's invulnerability after a hit (mob-rules/combat.ts, hurt.ts) on both worlds: one world of
 * each for the file, the cases played in order on both with the same moves, each outcome read from the world's truth
 * (the mobs' positions and health). Superflat grass at y=4, the bot at (0, 5, 0) with a stone sword, three still
 * zombies 2 blocks off: one in the open to +x (a plain hit), one in the open to -x (a sprinting hit), one against a
 * wall to +z (hits inside and past its invulnerability).
 */

const SCENARIO = parseScenario({
  name: 'melee-parity',
  timeOfDay: 18_000,
  bot: { inventory: { stone_sword: 1 } },
  fills: [{ from: { x: -1, y: 5, z: 3 }, to: { x: 1, y: 6, z: 3 }, block: 'stone' }],
  mobs: [
    { name: 'zombie', x: 2, y: 5, z: 0, ai: false },
    { name: 'zombie', x: -2, y: 5, z: 0, ai: false },
    { name: 'zombie', x: 0, y: 5, z: 2, ai: false },
  ],
});
const LOOK = { names: ['zombie'], within: 32 };

interface Side {
  /** Lets `ms` pass in the world. */
  wait(ms: number): Promise<void>;
  /** One swing at `id`, resolved as soon as it has landed (no cooldown after it). */
  swing(id: number, style: AttackOptions['style']): Promise<void>;
  mobs(): Promise<LivingEntity[]>;
}

/** The zombie standing on cell (x, z). */
async function zombieAt(side: Side, x: number, z: number): Promise<LivingEntity> {
  const found = (await side.mobs()).find((m) => Math.floor(m.position.x) === x && Math.floor(m.position.z) === z);
  if (!found) throw new Error(`no zombie on (${x}, ${z})`);
  return found;
}

const mob = async (side: Side, id: number) => (await side.mobs()).find((m) => m.id === id)!;
const flat = (a: Vec3Like, b: Vec3Like) => Math.hypot(a.x - b.x, a.z - b.z);
/** The sword charged again: its cooldown and a tick. */
const recharge = (side: Side) => side.wait(attackCooldownMs('stone_sword') + TICK_MS);
/** Long enough for a push or a hit to show in the world's truth (the server applies a push on its next ticks). */
const settle = (side: Side) => side.wait(4 * TICK_MS);

/** Blocks a full-charge hit of `style` pushed the zombie on (x, z) along the ground. */
async function push(side: Side, x: number, z: number, style: AttackOptions['style']): Promise<number> {
  const before = await zombieAt(side, x, z);
  await recharge(side);
  await side.swing(before.id, style);
  await settle(side);
  return flat(before.position, (await mob(side, before.id)).position);
}

/** The wall zombie's health after a full-charge hit, a second swing at once (inside 10 ticks), and one after them. */
async function invulnerable(side: Side): Promise<number[]> {
  const { id } = await zombieAt(side, 0, 2);
  const health = async () => Math.round((await mob(side, id)).health! * 100) / 100;
  await recharge(side);
  await side.swing(id, 'plain');
  await settle(side);
  const afterFirst = await health();
  await side.swing(id, 'plain');
  await settle(side);
  const afterSecond = await health();
  await recharge(side);
  await side.swing(id, 'plain');
  await settle(side);
  return [afterFirst, afterSecond, await health()];
}

function simSide(world: WorldPort, clock: ManualClock): Side {
  return {
    wait: (ms) => clock.advance(ms),
    swing: (id, style) => onClock(clock, world.attack!(id, { style, recover: false })),
    mobs: async () => (await world.observe({ entities: LOOK })).entities!,
  };
}

function serverSide(world: WorldPort, embedded: EmbeddedWorld, username: string): Side {
  return {
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    swing: (id, style) => world.attack!(id, { style, recover: false }),
    mobs: () => embedded.server.livingEntities(LOOK, embedded.server.player(username)!.position),
  };
}

describe('melee: knockback and invulnerability agree on SimWorld and the embedded server', () => {
  const both = worldPair(SCENARIO, 'striker', {
    async sim(world, clock) {
      await onClock(clock, world.equip('stone_sword', 'hand'));
      return simSide(world, clock);
    },
    async server(bot, embedded) {
      await bot.equip('stone_sword', 'hand');
      return serverSide(bot, embedded, 'striker');
    },
  });

  /*
   * A plain hit pushes a mob 2.91 blocks and a sprinting one 5.34 (vanilla's LivingEntity.knockback 0.4, plus 0.5 for a
   * sprint, through its ground friction: combat.ts); the wiki (Knockback, enchantment) puts the sprint's extra push at
   * one knockback level, 2.586 blocks. Both worlds slide the mob in steps of 0.25 blocks: that is the tolerance.
   */
  it('a full-charge hit pushes a zombie about 2.9 blocks away from the bot, a sprinting one about 5.3', async () => {
    const [simPlain, serverPlain] = await both((side) => push(side, 2, 0, 'plain'));
    const [simSprint, serverSprint] = await both((side) => push(side, -2, 0, 'sprint'));
    for (const plain of [simPlain, serverPlain]) expect(Math.abs(plain - 2.91)).toBeLessThanOrEqual(0.25);
    for (const sprint of [simSprint, serverSprint]) expect(Math.abs(sprint - 5.34)).toBeLessThanOrEqual(0.25);
    expect(Math.abs(simSprint - simPlain - 2.586)).toBeLessThanOrEqual(0.25);
    expect(Math.abs(serverSprint - serverPlain - 2.586)).toBeLessThanOrEqual(0.25);
    expect(Math.abs(serverPlain - simPlain)).toBeLessThanOrEqual(0.25);
    expect(Math.abs(serverSprint - simSprint)).toBeLessThanOrEqual(0.25);
  }, 30_000);

  /*
   * A mob hit stays invulnerable 10 ticks (0.5 s, the wiki's Damage#Immunity): a weaker hit within them does nothing.
   * A stone sword at full charge takes 4.92 off a zombie (2 armour points).
   */
  it('a second swing inside the 10 ticks after a hit does nothing; one after them takes its 4.92', async () => {
    const [simHealths, serverHealths] = await both(invulnerable);
    expect(simHealths).toEqual([15.08, 15.08, 10.16]);
    expect(serverHealths).toEqual(simHealths);
  }, 30_000);
});
