import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { LATENCY_EVERY_TICKS, tabListPlugin } from '../../src/world/embedded/plugins/tab-list.js';
import type { SquidPlayer, SquidServer } from '../../src/world/embedded/squid-types.js';

/**
 * Latency reaches the tab list as vanilla sends it: one player_info update of every player's latency, to every player,
 * once every 600 ticks; flying-squid's own update (each player, the whole list, every 5 s) is dropped.
 */

interface Written {
  to: string;
  name: string;
  params: { action: unknown; data: { uuid: string; latency?: number }[] };
}

function fakeServer(names: readonly string[]) {
  const written: Written[] = [];
  const serv = Object.assign(new EventEmitter(), {
    players: [] as SquidPlayer[],
    registry: { supportFeature: (feature: string) => feature === 'playerInfoActionIsBitfield' },
    _writeArray: (name: string, params: object, players: readonly SquidPlayer[]) => {
      for (const player of players) player._client.write(name, params);
    },
  }) as unknown as SquidServer;
  tabListPlugin.server!(serv, {});
  for (const [i, username] of names.entries()) {
    const client = Object.assign(new EventEmitter(), {
      latency: 10 * (i + 1),
      write: (name: string, params: object) =>
        written.push({ to: username, name, params: params as Written['params'] }),
    });
    const player = Object.assign(new EventEmitter(), { username, uuid: `uuid-${username}`, _client: client });
    tabListPlugin.player!(player as unknown as SquidPlayer, serv);
    serv.players.push(player as unknown as SquidPlayer);
  }
  const tick = (count: number) => {
    for (let i = 1; i <= count; i++) serv.emit('tick', 0.05, i);
  };
  return { serv, written, tick };
}

describe('tab-list latency', () => {
  it('sends every player the latency of all, once every 600 ticks', () => {
    const { written, tick } = fakeServer(['a', 'b', 'c']);
    tick(LATENCY_EVERY_TICKS - 1);
    expect(written).toEqual([]);
    tick(LATENCY_EVERY_TICKS);
    expect(written.map((w) => w.to)).toEqual(['a', 'b', 'c']);
    for (const { name, params } of written) {
      expect(name).toBe('player_info');
      expect(params.action).toEqual({ update_latency: true });
      expect(params.data).toEqual([
        { uuid: 'uuid-a', latency: 10 },
        { uuid: 'uuid-b', latency: 20 },
        { uuid: 'uuid-c', latency: 30 },
      ]);
    }
  });

  it("drops flying-squid's own latency updates and lets every other player_info through", () => {
    const { serv, written } = fakeServer(['a', 'b']);
    const client = serv.players[0]!._client;
    const data = [{ uuid: 'uuid-b', latency: 5 }];
    client.write('player_info', { action: { update_latency: true }, data });
    client.write('player_info', { action: 'update_latency', data });
    expect(written).toEqual([]);
    const added = { action: { add_player: true, update_latency: true }, data };
    client.write('player_info', added);
    client.write('chat', { message: 'hi' });
    expect(written.map((w) => w.params)).toEqual([added, { message: 'hi' }]);
  });
});
