import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { captureView, forkWorld } from '../../src/foresight/index.js';
import { botOf } from '../../src/world/mineflayer/index.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { eventually } from '../helpers/eventually.js';
import { recordingActuators } from './instrumented.js';

const BOUNDS = { radius: 8, height: 4 };
const suite = embeddedSuite({
  timeOfDay: 6000,
  bot: { inventory: { cobblestone: 7, bread: 2 }, health: 20, food: 20 },
  fills: [{ from: { x: 3, y: 5, z: -2 }, to: { x: 3, y: 6, z: 2 }, block: 'stone' }],
  blocks: [{ x: -2, y: 5, z: 1, block: 'oak_log' }],
  mobs: [{ name: 'cow', x: -4, y: 5, z: -3, ai: false, health: 7 }],
});

describe('a fork of a real bot on the embedded server', () => {
  it('reproduces what the bot sees (blocks, pack, health, time, mobs) and running it never moves the real bot', async () => {
    const bot = await suite.world.connectBot('seer');
    await botOf(bot).waitForChunksToLoad();
    expect(await eventually(() => bot.entities().some((entity) => entity.name === 'cow'))).toBe(true);
    expect(await eventually(() => bot.inventory().cobblestone === 7)).toBe(true);
    const { world: instrumented, calls } = recordingActuators(bot);

    const view = await captureView(instrumented, BOUNDS);
    const clock = new ManualClock();
    const fork = forkWorld(structuredClone(view), { clock, mobsAct: false });

    const feet = bot.position();
    const [fx, fy, fz] = [Math.floor(feet.x), Math.floor(feet.y), Math.floor(feet.z)];
    for (let x = fx - BOUNDS.radius; x <= fx + BOUNDS.radius; x++)
      for (let y = fy - BOUNDS.height; y <= fy + BOUNDS.height; y++)
        for (let z = fz - BOUNDS.radius; z <= fz + BOUNDS.radius; z++)
          expect(fork.blockAt({ x, y, z })?.name ?? null).toBe(bot.blockAt({ x, y, z })?.name ?? null);
    expect(fork.blockAt({ x: 3, y: 5, z: 0 })?.name).toBe('stone');
    expect(fork.inventory()).toEqual(bot.inventory());
    expect([fork.heldItem(), fork.health(), fork.food()]).toEqual([bot.heldItem(), bot.health(), bot.food()]);
    expect(fork.timeOfDay()).toBe((await bot.observe({ time: true })).timeOfDay);
    const cows = await fork.observe({ entities: { names: ['cow'], within: 32 } });
    expect(cows.entities?.map(({ name, health }) => [name, health])).toEqual([['cow', 7]]);

    const before = { ...bot.position() };
    const walked = fork.goto({ kind: 'block', x: fx + 5, y: fy, z: fz + 5 });
    await clock.runUntil(() => fork.liveActuators() === 0, 60_000);
    await walked;
    expect(fork.position()).toMatchObject({ x: fx + 5.5, z: fz + 5.5 });
    expect(calls).toEqual([]);
    expect(bot.position()).toEqual(before);
  }, 120_000);
});
