import type { EventEmitter } from 'node:events';
import fc from 'fast-check';
import type { Bot } from 'mineflayer';
import { describe, expect, it } from 'vitest';
import { HANDLER_MISSED, updateTabLatencyDirectly } from '../../src/world/mineflayer/tab-latency.js';
import { offlineBot } from '../helpers/offline-bot.js';

/*
 * Issue 34, §2: a latency-only player_info update is done without mineflayer's lookup of each entry's player among all
 * the bot's entities. A bot that does so must end with the same players (their uuid, name, ping and entity), the same
 * `bot.player` and the same 'playerUpdated' events as a bot that hands every update to mineflayer, whatever came
 * before: players added and removed, their entities spawned and destroyed, two entities of one name, entries of
 * unknown players. And it must look the entities up once per update, not once per entry.
 */

/** minecraft-data's id of the player entity in 1.21.4. */
const PLAYER = 147;
const NAMES = ['ann', 'bob', 'offline'];
const uuidOf = (k: number) => `00000000-0000-0000-0000-00000000000${k}`;
const player = fc.integer({ min: 0, max: NAMES.length - 1 });
/** One more uuid than players: an entry of a player the bot never heard of. */
const anyUuid = fc.integer({ min: 0, max: NAMES.length });
const entityId = fc.integer({ min: 1, max: 4 });

type Sent = [name: string, params: object];

const added = (k: number): Sent => [
  'player_info',
  { action: { add_player: true }, data: [{ uuid: uuidOf(k), player: { name: NAMES[k], properties: [] } }] },
];

const latencies = (entries: [number, number][]): Sent => [
  'player_info',
  { action: { update_latency: true }, data: entries.map(([k, latency]) => ({ uuid: uuidOf(k), latency })) },
];

const sent: fc.Arbitrary<Sent> = fc.oneof(
  { weight: 2, arbitrary: player.map(added) },
  {
    weight: 2,
    arbitrary: fc.tuple(entityId, player).map(([id, k]): Sent => [
      'spawn_entity',
      {
        entityId: id,
        objectUUID: uuidOf(k),
        type: PLAYER,
        x: id,
        y: 5,
        z: 0,
        pitch: 0,
        yaw: 0,
        headPitch: 0,
        objectData: 0,
        velocity: { x: 0, y: 0, z: 0 },
      },
    ]),
  },
  { weight: 1, arbitrary: entityId.map((id): Sent => ['entity_destroy', { entityIds: [id] }]) },
  { weight: 1, arbitrary: player.map((k): Sent => ['player_remove', { players: [uuidOf(k)] }]) },
  {
    weight: 4,
    arbitrary: fc.array(fc.tuple(anyUuid, fc.integer({ min: 0, max: 1000 })), { maxLength: 5 }).map(latencies),
  },
);

/** The bot's players and who it is, with each player's entity by id. */
function players(bot: Bot) {
  const seen = Object.values(bot.players).map((p) => ({
    uuid: p.uuid,
    username: p.username,
    ping: p.ping,
    entity: p.entity ? p.entity.id : p.entity,
  }));
  return { seen, self: (bot as unknown as { player?: { username: string } }).player?.username };
}

/** The 'playerUpdated' events of `bot`, heard by wrapping its emit (a listener would change what is done). */
function updates(bot: Bot): unknown[] {
  const heard: unknown[] = [];
  const emit = bot.emit.bind(bot);
  bot.emit = (event: string, ...args: unknown[]) => {
    if (event === 'playerUpdated') {
      const p = args[0] as { username: string; ping?: number; entity?: { id: number } | null };
      heard.push([p.username, p.ping, p.entity?.id]);
    }
    return emit(event as never, ...(args as never[]));
  };
  return heard;
}

/** Counts how often the bot's entities are listed (each `Object.values(bot.entities)` lists them once). */
function countListings(bot: Bot): { listings: number } {
  const count = { listings: 0 };
  const entities = bot.entities;
  bot.entities = new Proxy(entities, {
    ownKeys(target) {
      count.listings++;
      return Reflect.ownKeys(target);
    },
  });
  return count;
}

describe('latency updates of the tab list', () => {
  it('end as mineflayer ends them, player by player and event by event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(sent, { minLength: 10, maxLength: 40 }), async (packets) => {
        const usual = await offlineBot(-1);
        const direct = await offlineBot(-1);
        updateTabLatencyDirectly(direct.bot);
        const heard = [updates(usual.bot), updates(direct.bot)];
        for (const [name, params] of packets) {
          usual.receive(name, params);
          direct.receive(name, params);
        }
        expect(players(direct.bot)).toEqual(players(usual.bot));
        expect(heard[1]).toEqual(heard[0]);
        usual.bot.end();
        direct.bot.end();
      }),
      { numRuns: 30 },
    );
  }, 60_000);

  it('lists the entities once per update, not once per entry', async () => {
    const runs = await Promise.all([offlineBot(-1), offlineBot(-1)]);
    updateTabLatencyDirectly(runs[1].bot);
    const listings = runs.map(({ bot, receive }) => {
      for (let k = 0; k < 3; k++) receive(...added(k));
      const count = countListings(bot);
      receive(
        ...latencies([
          [0, 5],
          [1, 6],
          [2, 7],
        ]),
      );
      expect(bot.players.bob!.ping).toBe(6);
      bot.end();
      return count.listings;
    });
    expect(listings).toEqual([3, 1]);
  });
});

/*
 * mineflayer's handler is known by its source text alone. The installed mineflayer's must be found, and a
 * mineflayer whose handler reads otherwise must keep its own, with a warning rather than silence or a crash.
 */
describe("mineflayer's player_info handler", () => {
  const playerInfoListeners = (bot: Bot) => (bot._client as unknown as EventEmitter).listeners('player_info');

  it('is found in the installed mineflayer, and replaced in its place among the listeners', async () => {
    const { bot } = await offlineBot(-1);
    const before = playerInfoListeners(bot);
    expect(updateTabLatencyDirectly(bot)).toBe(true);
    const after = playerInfoListeners(bot);
    expect(after).toHaveLength(before.length);
    expect(after.map((listener) => before.includes(listener))).toEqual(
      before.map((listener) => !/uuidToUsername/.test(String(listener))),
    );
    bot.end();
  });

  it('when its text changes, is left as it is, with one process warning however many bots miss it', async () => {
    const heard: string[] = [];
    const hear = (warning: Error & { code?: string }) =>
      void (warning.code === HANDLER_MISSED && heard.push(warning.message));
    process.on('warning', hear);
    try {
      for (const { bot } of await Promise.all([offlineBot(-1), offlineBot(-1)])) {
        const client = bot._client as unknown as EventEmitter;
        // The same handler behind a wrapper whose source does not read uuidToUsername: as after a mineflayer update.
        const handlers = client.listeners('player_info') as ((packet: unknown) => void)[];
        client.removeAllListeners('player_info');
        for (const handler of handlers) client.on('player_info', (packet: unknown) => handler(packet));
        const wrapped = playerInfoListeners(bot);
        expect(updateTabLatencyDirectly(bot)).toBe(false);
        expect(playerInfoListeners(bot)).toEqual(wrapped);
        bot.end();
      }
      // process.emitWarning emits on the next tick.
      await new Promise<void>((resolve) => process.nextTick(resolve));
      expect(heard).toEqual([expect.stringContaining("mineflayer's player_info handler was not found")]);
    } finally {
      process.off('warning', hear);
    }
  });
});
