import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { WorldPort } from '../../src/contracts/world.js';
import { Rejoining, type Session } from '../../src/world/mineflayer/rejoining-world.js';
import { parseServerMark, restartBetween, type Restart, type ServerMark } from '../../src/world/server-mark.js';
import { SimWorld } from '../../src/world/sim/index.js';

const mark = (server: string | null, age: number | null, savedUpTo: number | null = null): ServerMark => ({
  server,
  savedUpTo,
  age,
});

describe('restartBetween: a rejoin tells a restarted server from a dropped connection', () => {
  it('another server process is a restart, with up to when the world that came back was saved', () => {
    expect(restartBetween(mark('a', 0), mark('b', 0, 1234))).toEqual({
      evidence: 'the server is another process (a, now b)',
      savedUpTo: 1234,
    });
    // The same process (a connection that dropped) is none, whatever the age says.
    expect(restartBetween(mark('a', 900), mark('a', 10))).toBeNull();
  });

  it("a server that says no id: the world's age going back is a restart, an age that grew is none", () => {
    expect(restartBetween(mark(null, 6000), mark(null, 120))).toEqual({
      evidence: "the world's age went back from 6000 to 120 ticks",
      savedUpTo: null,
    });
    expect(restartBetween(mark(null, 6000), mark(null, 6040))).toBeNull();
    expect(restartBetween(mark(null, null), mark(null, 5))).toBeNull();
  });

  it('reads the embedded world’s payload, and nothing from one that is not its', () => {
    expect(parseServerMark(Buffer.from('{"server":"s1","savedUpTo":99}'))).toEqual({ server: 's1', savedUpTo: 99 });
    expect(parseServerMark(Buffer.from('{"server":"s1"}'))).toEqual({ server: 's1', savedUpTo: null });
    expect(parseServerMark(Buffer.from('not json'))).toBeNull();
    expect(parseServerMark(Buffer.from('{"savedUpTo":1}'))).toBeNull();
  });
});

/** A SimWorld session on a server that names itself `server`. */
function sessionOn(clock: ManualClock, server: string): { world: SimWorld; session: Session } {
  const world = SimWorld.create({ clock });
  const marked = Object.assign(world, { serverMark: () => mark(server, 0, 500) }) as SimWorld & WorldPort;
  return { world, session: { world: marked, close: () => Promise.resolve(world.close()) } };
}

describe('Rejoining: the restart is told before the bot reads as back', () => {
  for (const [again, restarted] of [
    ['s2', true],
    ['s1', false],
  ] as const)
    it(`a server ${restarted ? 'that restarted' : 'that only dropped the connection'}: returning is told ${restarted ? 'the restart' : 'none'} while the world still reads as away`, async () => {
      const clock = new ManualClock();
      const first = sessionOn(clock, 's1');
      const told: { restart: Restart | null; connected: boolean }[] = [];
      const rejoined: (Restart | null)[] = [];
      const rejoining: Rejoining = new Rejoining(first.session, {
        clock,
        join: () => Promise.resolve(sessionOn(clock, again).session),
        returning: (_world, restart) => {
          told.push({ restart, connected: rejoining.world.isConnected() });
          return Promise.resolve();
        },
        onRejoined: (_away, _tries, restart) => rejoined.push(restart),
      });
      first.world.disconnect('the server closed');
      await clock.runUntil(() => rejoining.world.isConnected(), 60_000);
      const restart = restarted ? { evidence: 'the server is another process (s1, now s2)', savedUpTo: 500 } : null;
      expect(told).toEqual([{ restart, connected: false }]);
      expect(rejoined).toEqual([restart]);
      await rejoining.close();
    });
});
