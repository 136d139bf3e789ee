import type { Bot } from 'mineflayer';
import { describe, expect, it } from 'vitest';
import { WorldError } from '../../src/contracts/world.js';
import { ManualClock } from '../../src/clock/index.js';
import { botActuator } from '../../src/world/mineflayer/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { wrapActuators } from '../../src/world/wrap-actuators.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { botOf } from '../../src/world/mineflayer/index.js';
import { eventually } from '../helpers/eventually.js';

const suite = embeddedSuite({ bot: { inventory: { dirt: 5 } } });

async function failure(promise: Promise<unknown>): Promise<WorldError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorldError);
  return error as WorldError;
}

describe('optional actuators on the embedded server', () => {
  it('toss: the items leave the inventory the server holds, and lie on its ground', async () => {
    const bot = await suite.world.connectBot('tosser');
    await bot.toss('dirt', 3);
    expect(suite.server.player('tosser')!.inventory).toEqual({ dirt: 2 });
    const tossed = async () =>
      ((await bot.observe({ drops: { radius: 8 } })).drops ?? [])
        .filter((d) => d.name === 'dirt')
        .reduce((n, d) => n + d.count, 0);
    expect(await eventually(async () => (await tossed()) === 3)).toBe(true);
    expect((await failure(bot.toss('dirt', 3))).code).toBe('precondition_missing');
    expect(suite.server.player('tosser')!.inventory).toEqual({ dirt: 2 });
  });

  it('chat: a message is relayed by the server to another player; a command is refused before it is sent', async () => {
    const speaker = await suite.world.connectBot('speaker');
    const listener = await suite.world.connectBot('listener');
    const heard: string[] = [];
    botOf(listener).on('messagestr', (line: string) => void heard.push(line));
    await speaker.chat('the tree is felled');
    expect(await eventually(() => Promise.resolve(heard.some((line) => line.includes('the tree is felled'))))).toBe(
      true,
    );
    expect((await failure(speaker.chat('/op speaker'))).code).toBe('guard_failed');
  });
});

describe("a user's own actuator on the raw bot", () => {
  it('runs as a named actuator command the wrappers (timers, journal) see, and is cancelled by the signal', async () => {
    const bot = await suite.world.connectBot('native-user');
    const seen: string[] = [];
    const world = wrapActuators(bot, (call, act) => (seen.push(call.command), act()));
    await botActuator(world, 'look-up', (raw: Bot) => raw.look(0, Math.PI / 2, true));
    expect(botOf(bot).entity.pitch).toBeCloseTo(Math.PI / 2);
    expect(seen).toEqual(['native:look-up']);

    const stop = new AbortController();
    let cancelled = false;
    const waiting = botActuator(
      world,
      'wait',
      (_raw, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve((cancelled = true)))),
      { signal: stop.signal },
    );
    stop.abort();
    expect((await failure(waiting)).code).toBe('aborted');
    expect(cancelled).toBe(true);
  });

  it('a world without a bot refuses it as guard_failed, naming the world', async () => {
    const sim = SimWorld.create({ clock: new ManualClock() });
    const refused = await failure(botActuator(sim, 'fish', () => Promise.resolve()));
    expect(refused.code).toBe('guard_failed');
    expect(refused.message).toContain('the sim world has none');
  });
});
