import { describe, expect, it } from 'vitest';
import { botOf } from '../../src/world/mineflayer/index.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { eventually } from '../helpers/eventually.js';

/*
 * A critical swing in a tunnel two blocks high: the jump rises 0.2, falls one tick and lands. The swing goes the tick
 * it lands, and the server, which last heard of the bot falling, counts it critical. In a night's tech-tree run
 * (server world 1) every swing of a fight in a mine waited for a second tick of falling that never came, and then
 * out the command's one-second give-up: a plain hit every 1.8 s while the zombie hit back, 11 health lost to one.
 */

const suite = embeddedSuite({
  bot: { inventory: { stone_sword: 1 } },
  fills: [
    // The tunnel's ceiling two blocks over the bot's feet (y 5), and the wall behind the zombie.
    { from: { x: -2, y: 7, z: -2 }, to: { x: 3, y: 7, z: 2 }, block: 'stone' },
    { from: { x: 3, y: 5, z: -2 }, to: { x: 3, y: 6, z: 2 }, block: 'stone' },
  ],
  mobs: [{ name: 'zombie', x: 2, y: 5, z: 0, ai: false }],
});

describe('a critical swing under a low ceiling on the embedded server', () => {
  it('swings the tick the jump lands, a critical hit, not after the give-up', async () => {
    const world = await suite.world.connectBot('tunneller');
    const bot = botOf(world);
    await world.equip('stone_sword', 'hand');
    const [zombie] = (await world.observe({ entities: { names: ['zombie'], within: 16 } })).entities!;
    expect(await eventually(() => bot.entities[zombie!.id] !== undefined)).toBe(true);
    // The charge full (a stone sword's 625 ms) before the swing.
    await new Promise((resolve) => setTimeout(resolve, 700));

    let tick = 0;
    let liftedAt: number | null = null;
    let landedAt: number | null = null;
    const onTick = () => {
      tick++;
      if (!bot.entity.onGround) liftedAt ??= tick;
      else if (liftedAt !== null) landedAt ??= tick;
    };
    bot.on('physicsTick', onTick);
    let swungAt: number | null = null;
    const attack = bot.attack.bind(bot);
    bot.attack = (entity, ...rest) => {
      swungAt = tick;
      return attack(entity, ...rest);
    };
    try {
      await world.attack(zombie!.id, { style: 'critical', recover: false });
    } finally {
      bot.removeListener('physicsTick', onTick);
      bot.attack = attack;
    }

    expect(liftedAt).not.toBeNull();
    expect(landedAt).not.toBeNull();
    expect(swungAt).toBe(landedAt);
    // The server's truth: a critical full-charge hit on a zombie (2 armour points), 7.38, not a plain one's 4.92.
    const health = async () =>
      (await suite.server.livingEntities({ ids: [zombie!.id] }, world.position()))[0]?.health ?? null;
    expect(await eventually(async () => (await health()) !== 20)).toBe(true);
    expect(Math.round((await health())! * 100) / 100).toBe(12.62);
  }, 60_000);
});
