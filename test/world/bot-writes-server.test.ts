import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { botOf, type MineflayerWorld } from '../../src/world/mineflayer/index.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { eventually } from '../helpers/eventually.js';

/*
 * Issue 34 §2: a bot sends the packets one callback writes as one socket write (batched-writes.ts), where
 * minecraft-protocol made a system call of each: a late body runs every tick it owes in one callback, each tick with its
 * position. What the server sees of the bot must not change: every move the bot sends reaches it, in order (one a tick
 * while walking, at least one every 20 ticks at rest, as vanilla sends them), and every keep-alive is answered, so
 * nothing is kicked.
 */

const suite = embeddedSuite({});

const MOVES = new Set(['position', 'position_look', 'look']);
/** What a move packet tells the server, in the order the fields are sent. */
type Move = [name: string, x?: number, y?: number, z?: number, yaw?: number, pitch?: number];
const moveOf = (name: string, p: { x?: number; y?: number; z?: number; yaw?: number; pitch?: number }): Move =>
  name === 'look'
    ? [name, p.yaw, p.pitch]
    : name === 'position'
      ? [name, p.x, p.y, p.z]
      : [name, p.x, p.y, p.z, p.yaw, p.pitch];

interface PacketSide {
  write(name: string, params: object): void;
  on(event: 'packet', listener: (data: object, meta: { name: string }) => void): void;
  username?: string;
  socket: { _writeGeneric: (...args: unknown[]) => unknown };
}

/** What one bot sends: its packets by name (move packets in full), and its socket's system writes. */
function watchSent(world: MineflayerWorld) {
  const client = botOf(world)._client as unknown as PacketSide;
  const sent = { moves: [] as Move[], packets: 0, systemWrites: 0 };
  const write = client.write.bind(client);
  client.write = (name, params) => {
    sent.packets++;
    if (MOVES.has(name)) sent.moves.push(moveOf(name, params));
    write(name, params);
  };
  const socket = client.socket;
  const generic = socket._writeGeneric;
  socket._writeGeneric = function counted(...args: unknown[]) {
    sent.systemWrites++;
    return generic.apply(this, args);
  };
  return sent;
}

/** What the server reads from the player `username`: its moves in full, and its keep-alive answers. */
function watchReceived(username: string) {
  const serv = (suite.server as unknown as { serv: { _server: { clients: Record<string, PacketSide> } } }).serv;
  const client = Object.values(serv._server.clients).find((c) => c.username === username)!;
  const received = { moves: [] as Move[], keepAlives: 0 };
  client.on('packet', (data, { name }) => {
    if (MOVES.has(name)) received.moves.push(moveOf(name, data));
    if (name === 'keep_alive') received.keepAlives++;
  });
  return received;
}

/**
 * Whether the server has read every move the bot sent since it was watched, in order: the moves the server read end
 * with them (it may have read one or two more first, sent before the bot was watched).
 */
const allReceived = (sent: { moves: Move[] }, received: { moves: Move[] }) =>
  JSON.stringify(received.moves.slice(received.moves.length - sent.moves.length)) === JSON.stringify(sent.moves);

/** A bot joined, with what it sends and what the server reads from it watched from now on. */
async function joinWatched(username: string) {
  const world = await suite.world.connectBot(username);
  return { world, bot: botOf(world), sent: watchSent(world), received: watchReceived(username) };
}

/** Holds this process's event loop `ms` in the next turn: a bot's body then owes the ticks of that time. */
function holdLoop(ms: number): void {
  setImmediate(() => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      // Busy elsewhere, as a loaded worker is.
    }
  });
}

describe("a bot's packets on the embedded server, a callback's in one write", () => {
  it('reach the server every one, in order, while walking on a late loop, in fewer writes than packets', async () => {
    const { world: walker, bot, sent, received } = await joinWatched('walker');
    // Every tenth tick the loop is held 300 ms: the body runs the 6 ticks it owes in one callback.
    let ticks = 0;
    const late = () => {
      if (++ticks % 10 === 0) holdLoop(300);
    };
    bot.on('physicsTick', late);
    try {
      await walker.goto({ kind: 'block', x: 10, y: 5, z: 8 });
    } finally {
      bot.removeListener('physicsTick', late);
    }
    const walked = { moves: sent.moves.length, packets: sent.packets, systemWrites: sent.systemWrites };
    expect(walked.moves).toBeGreaterThan(40);
    expect(await eventually(() => allReceived(sent, received))).toBe(true);
    expect(received.moves.length - sent.moves.length).toBeLessThanOrEqual(2);
    const server = () => suite.server.player('walker')!.position;
    expect(await eventually(() => JSON.stringify(server()) === JSON.stringify(bot.entity.position))).toBe(true);
    // The cut: each late callback's ticks left in one write (one a packet before).
    expect(walked.systemWrites).toBeLessThan(walked.packets);
  }, 60_000);

  it('are seen at rest at least once every 20 ticks, and answer every keep-alive past the kick timeout', async () => {
    const { bot, sent, received } = await joinWatched('rester');
    let ticks = 0;
    const tick = () => {
      ticks++;
    };
    bot.on('physicsTick', tick);
    let ended = false;
    bot.once('end', () => {
      ended = true;
    });
    // The server asks every 4 s and kicks a player silent for 10 s (embedded-server.ts): a third answer comes after
    // more than 10 s.
    try {
      expect(await eventually(() => received.keepAlives >= 3, 30_000)).toBe(true);
    } finally {
      bot.removeListener('physicsTick', tick);
    }
    expect(await eventually(() => allReceived(sent, received))).toBe(true);
    expect(sent.moves.filter(([name]) => name !== 'look').length).toBeGreaterThanOrEqual(Math.floor(ticks / 20) - 1);
    expect(ended).toBe(false);
    expect(suite.server.player('rester')).not.toBeNull();
  }, 60_000);
});
