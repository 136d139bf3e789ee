import { describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { verbtree } from '../../src/mineflayer-plugin.js';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { loadMineflayer } from '../../src/world/mineflayer/load-mineflayer.js';
import { embeddedSuite } from '../helpers/embedded.js';

const suite = embeddedSuite({ bot: { inventory: { dirt: 2 } } });

/** A bot as a user makes one: mineflayer.createBot, its own pathfinder settings, then verbtree as a plugin. */
async function usersBot(username: string): Promise<Bot> {
  const { mineflayer, pathfinder } = loadMineflayer();
  const bot = mineflayer.createBot({
    host: suite.server.host,
    port: suite.server.port,
    username,
    version: suite.server.version,
    auth: 'offline',
  });
  bot.loadPlugin(pathfinder.pathfinder);
  await new Promise<void>((resolve, reject) => {
    bot.once('spawn', () => resolve());
    bot.once('end', (reason) => reject(new Error(`the bot left: ${reason}`)));
  });
  return bot;
}

describe('verbtree as a mineflayer plugin', () => {
  it('bot.verbtree.run walks the plan, verified on the server, with events on the bot; the bot keeps its own settings', async () => {
    const bot = await usersBot('plugin-user');
    try {
      const { pathfinder } = loadMineflayer();
      const own = new pathfinder.Movements(bot);
      own.canDig = false;
      bot.pathfinder.setMovements(own);
      const errorListeners = bot.listenerCount('error');

      bot.loadPlugin(verbtree({ world: { serverTruth: suite.server } }));
      const ended: ExecutorEvent[] = [];
      bot.on('verbtree:step.ended', (event) => ended.push(event));
      const result = await bot.verbtree.run({
        planId: 'plugin-walk',
        intentId: 'walk-there',
        steps: [{ stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 4, y: 5, z: 3 } } }],
      });

      expect(result.ok, JSON.stringify(result)).toBe(true);
      expect(ended.map((e) => e.type === 'step.ended' && [e.stepId, e.outcome.ok])).toEqual([['walk', true]]);
      const at = suite.server.player('plugin-user')!.position;
      expect([Math.floor(at.x), Math.floor(at.y), Math.floor(at.z)]).toEqual([4, 5, 3]);
      expect(bot.pathfinder.movements).toBe(own);
      expect(own.canDig).toBe(false);
      expect(bot.listenerCount('error')).toBe(errorListeners);
    } finally {
      bot.end();
    }
  });

  it('a plan the registry refuses is an explicit failure from run, not a hang', async () => {
    const bot = await usersBot('plugin-refused');
    try {
      bot.loadPlugin(verbtree({ world: { serverTruth: suite.server } }));
      const result = await bot.verbtree.run({
        planId: 'plugin-bad',
        intentId: 'i',
        steps: [{ stepId: 's', type: 'fly_to_moon', args: {} }],
      });
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result)).toContain('fly_to_moon');
    } finally {
      bot.end();
    }
  });

  it('with rejoin, a bot kicked from the server is made again and the plan waits for it, then ends verified', async () => {
    const bot = await usersBot('plugin-rejoin');
    const again: Bot[] = [];
    try {
      bot.loadPlugin(
        verbtree({
          world: { serverTruth: suite.server },
          rejoin: async () => {
            const next = await usersBot('plugin-rejoin');
            again.push(next);
            return next;
          },
        }),
      );
      await bot.verbtree.ready;
      const first = bot.verbtree.world;
      const left = new Promise((resolve) => bot.once('kicked', resolve));
      expect(suite.server.kick('plugin-rejoin', 'the server restarts')).toBe(true);
      await left;
      const result = await bot.verbtree.run({
        planId: 'plugin-rejoin-walk',
        intentId: 'walk-after-the-kick',
        steps: [{ stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 2, y: 5, z: 4 } } }],
      });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      expect(again).toHaveLength(1);
      expect(bot.verbtree.world).not.toBe(first);
      const at = suite.server.player('plugin-rejoin')!.position;
      expect([Math.floor(at.x), Math.floor(at.y), Math.floor(at.z)]).toEqual([2, 5, 4]);
    } finally {
      await bot.verbtree.world?.close();
      for (const next of again) next.end();
    }
  }, 90_000);
});
