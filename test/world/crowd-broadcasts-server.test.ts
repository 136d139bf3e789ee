import { createRequire } from 'node:module';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import { botOf } from '../../src/world/mineflayer/index.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { eventually } from '../helpers/eventually.js';

const suite = embeddedSuite({});

interface Serv {
  overworld: unknown;
  players: { username: string; changeBlock(position: Vec3, type: number, data: number): Promise<void> }[];
  _writeArray(name: string, params: object, players: readonly unknown[]): void;
  playSound(sound: string, world: unknown, position: Vec3): void;
}
const servOf = () => (suite.server as unknown as { serv: Serv }).serv;

/** Counts the packets handed to the fan-out by name, and to how many players each went. */
function watchFanOut(serv: Serv): Map<string, number[]> {
  const handed = new Map<string, number[]>();
  const writeArray = serv._writeArray.bind(serv);
  serv._writeArray = (name, params, players) => {
    handed.set(name, [...(handed.get(name) ?? []), players.length]);
    writeArray(name, params, players);
  };
  return handed;
}

/** protodef's schema validator, as minecraft-protocol loads it (one copy in this install). */
const Validator = createRequire(createRequire(import.meta.url).resolve('minecraft-protocol'))('protodef-validator') as {
  prototype: { createAjvInstance: (this: unknown, ...args: unknown[]) => void };
};

describe('what a crowd costs the world server', () => {
  it('a login compiles no protocol schema, on the server or the bot', async () => {
    await suite.world.connectBot('first');
    const create = Validator.prototype.createAjvInstance;
    let compiled = 0;
    Validator.prototype.createAjvInstance = function counted(...args: unknown[]) {
      compiled++;
      return create.apply(this, args);
    };
    try {
      await suite.world.connectBot('second');
    } finally {
      Validator.prototype.createAjvInstance = create;
    }
    // Before, each side built a validating protocol for its plugin channels, ajv's schemas compiled anew each time.
    expect(compiled).toBe(0);
  }, 30_000);

  it('a block change, a dig and a sound go to the bots as one packet each, handed to the fan-out once', async () => {
    const bots = [await suite.world.connectBot('a'), await suite.world.connectBot('b')].map(botOf);
    // A change to a column still on its way is lost with it (flying-squid reads the column before the change lands).
    const at = new Vec3(3, 5, 3);
    for (const bot of bots) expect(await eventually(() => bot.blockAt(at)?.name === 'air')).toBe(true);
    const serv = servOf();
    const handed = watchFanOut(serv);
    const heard: string[][] = bots.map(() => []);
    // By the packet's own event: a bot drops a sound off the bytes while only mineflayer's sound plugin hears it
    // (crowd-moves.ts), and a 'packet' listener does not count as one.
    bots.forEach((bot, i) =>
      bot._client.on('sound_effect', (data: { sound?: { data?: { soundName?: string } } }) => {
        heard[i]!.push(data.sound?.data?.soundName ?? '?');
      }),
    );

    await suite.server.setBlock({ x: 3, y: 5, z: 3 }, 'stone');
    serv.playSound('block.stone.place', serv.overworld, new Vec3(3.5, 5.5, 3.5));

    const everyone = serv.players.length;
    expect(handed.get('block_change')).toEqual([everyone]);
    expect(handed.get('sound_effect')).toEqual([everyone]);
    for (const bot of bots) expect(await eventually(() => bot.blockAt(at)?.name === 'stone')).toBe(true);
    expect(await eventually(() => heard.every((sounds) => sounds.includes('block.stone.place')))).toBe(true);

    // A dig (flying-squid's changeBlock) goes to every player but the digger, whom its acknowledgement tells.
    const digger = serv.players.find((player) => player.username === 'a')!;
    await digger.changeBlock(at, 0, 0);
    expect(handed.get('block_change')).toEqual([everyone, everyone - 1]);
    expect(await eventually(() => bots[1]!.blockAt(at)?.name === 'air')).toBe(true);
  }, 30_000);

  it("a joining bot's spawn reaches the bots in view through the fan-out, one serialization for all but the first", async () => {
    const serv = servOf();
    const watchers = suite.world.bots.map(botOf);
    const handed = watchFanOut(serv);
    const joined = botOf(await suite.world.connectBot('c'));

    // The first watcher is sent it by its spawnEntity (the packets recorded), the other three by the fan-out at once.
    expect(handed.get('spawn_entity')).toEqual([watchers.length - 1]);
    for (const bot of watchers)
      expect(await eventually(() => bot.entities[joined.entity.id]?.username === 'c')).toBe(true);
  }, 30_000);
});
