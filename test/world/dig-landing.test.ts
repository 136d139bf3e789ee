import { describe, expect, it, vi } from 'vitest';
import { botOf } from '../../src/world/mineflayer/index.js';
import { embeddedSuite } from '../helpers/embedded.js';

const suite = embeddedSuite({ blocks: [{ x: 2, y: 5, z: 0, block: 'oak_log' }] });

/*
 * mineflayer times a dig once, as it starts, and five times slower off the ground; the server expects the
 * on-ground time. A dig asked for while the bot is still in the air (a hop, the last step down of a walk) starts
 * only once it has landed, and breaks the block as the server holds it.
 */
describe('a dig asked for in mid-air', () => {
  it('starts digging once the bot stands on the ground, and the block is gone on the server', async () => {
    const world = await suite.world.connectBot('hopper');
    const bot = botOf(world);
    const onGroundAtDig: boolean[] = [];
    const dig = bot.dig.bind(bot);
    bot.dig = ((...args: Parameters<typeof bot.dig>) => (
      onGroundAtDig.push(bot.entity.onGround),
      dig(...args)
    )) as typeof bot.dig;
    // Just spawned, mineflayer holds the bot off the ground (the spawn's position packet says so, and the first
    // physics tick may too): the hop starts once it stands.
    await vi.waitFor(() => expect(bot.entity.onGround).toBe(true), { timeout: 10_000, interval: 20 });
    // The dig is asked for in the very physics tick the hop leaves the ground: a loaded machine runs several ticks
    // in one go, and the next line of the test may come only after the bot has landed.
    await new Promise<void>((resolve, reject) => {
      const leave = () => {
        if (bot.entity.onGround) return;
        bot.removeListener('physicsTick', leave);
        bot.setControlState('jump', false);
        world.dig({ x: 2, y: 5, z: 0 }).then(resolve, reject);
      };
      bot.on('physicsTick', leave);
      bot.setControlState('jump', true);
    });
    expect(onGroundAtDig).toEqual([true]);
    expect(await suite.server.blockAt({ x: 2, y: 5, z: 0 })).toBe('air');
  }, 30_000);
});
