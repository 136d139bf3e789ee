import { describe, expect, it } from 'vitest';
import { botOf, type MineflayerWorld } from '../../src/world/mineflayer/index.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Players as vanilla shows them to each other: the tab list (player_info) when a player joins (the joining player gets
 * every player's entry, each player already there the joining player's alone), and each player's entity as a player.
 */

const suite = embeddedSuite({ bot: { inventory: { dirt: 4 } } });

interface PlayerInfo {
  action: number | Record<string, boolean>;
  data: { uuid: string }[];
}

/** How many entries each tab-list addition `bot` receives from now on carries. */
function additionsTo(bot: MineflayerWorld): number[] {
  const sizes: number[] = [];
  const client = (botOf(bot) as unknown as { _client: NodeJS.EventEmitter })._client;
  client.on('player_info', (packet: PlayerInfo) => {
    const adds = typeof packet.action === 'number' ? (packet.action & 1) === 1 : packet.action.add_player === true;
    if (adds) sizes.push(packet.data.length);
  });
  return sizes;
}

const knows = (bot: MineflayerWorld, names: readonly string[]) =>
  names.every((name) => botOf(bot).players[name] !== undefined);

describe('players on the embedded server', () => {
  it('a joining bot learns every player from the tab list; those already in learn only of it', async () => {
    const first = await suite.world.connectBot('tab-first');
    const heardByFirst = additionsTo(first);
    const second = await suite.world.connectBot('tab-second');
    const third = await suite.world.connectBot('tab-third');
    const everyone = ['tab-first', 'tab-second', 'tab-third'];
    for (const bot of [first, second, third]) expect(await eventually(() => knows(bot, everyone))).toBe(true);
    // One entry for each later join, not the whole list again.
    expect(heardByFirst).toEqual([1, 1]);
  }, 60_000);

  it("reads each player's packets with a splitter that takes no stack traces", async () => {
    await suite.world.connectBot('splitter-a');
    const serv = (suite.server as unknown as { serv: { _server: { clients: Record<string, object> } } }).serv;
    const splitters = Object.values(serv._server.clients).map(
      (client) => (client as { splitter: Record<symbol, unknown> }).splitter[Symbol.for('verbtree.stacklessFrames')],
    );
    expect(splitters.length).toBeGreaterThan(0);
    expect(splitters.every((stackless) => stackless === true)).toBe(true);
  }, 60_000);

  it('a bot sees the other players as players, with their names', async () => {
    await suite.world.connectBot('seen-a');
    const watcher = await suite.world.connectBot('seen-b');
    const seen = () =>
      Object.values(botOf(watcher).entities)
        .filter((entity) => entity !== botOf(watcher).entity)
        .map((entity) => [entity.type, entity.username]);
    expect(await eventually(() => seen().some(([, name]) => name === 'seen-a'))).toBe(true);
    expect(seen().every(([type]) => type === 'player')).toBe(true);
  }, 60_000);
});
