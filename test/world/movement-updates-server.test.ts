import { describe, expect, it } from 'vitest';
import { crowdMovesReadDirectly } from '../../src/world/mineflayer/crowd-moves.js';
import { botOf, type MineflayerWorld } from '../../src/world/mineflayer/index.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { eventually } from '../helpers/eventually.js';

const suite = embeddedSuite({});

interface Client {
  write(name: string, params: object): void;
  on(event: 'packet', listener: (data: { entityId?: number }, meta: { name: string }) => void): void;
}
const clientOf = (world: MineflayerWorld) => (botOf(world) as unknown as { _client: Client })._client;

const MOVES_SENT = new Set(['position', 'position_look', 'look']);
const MOVES_RECEIVED = new Set(['rel_entity_move', 'entity_move_look', 'entity_look', 'entity_teleport']);

describe('movement updates on the embedded server', () => {
  it('a walking bot reaches a watcher in one packet per two ticks at most, and ends where the server holds it', async () => {
    const watcher = await suite.world.connectBot('watcher');
    const walker = await suite.world.connectBot('walker');
    expect(await eventually(() => botOf(watcher).entities[botOf(walker).entity.id] !== undefined)).toBe(true);
    // The two bots' entities are of one class (entity-class-memo.ts), and the watcher still sees the walker move.
    expect(Object.getPrototypeOf(botOf(watcher).entities[botOf(walker).entity.id])).toBe(
      Object.getPrototypeOf(botOf(walker).entity),
    );

    let sent = 0;
    const client = clientOf(walker);
    const write = client.write.bind(client);
    client.write = (name, params) => {
      if (MOVES_SENT.has(name)) sent++;
      write(name, params);
    };
    const received: string[] = [];
    clientOf(watcher).on('packet', (data, meta) => {
      if (data.entityId === botOf(walker).entity.id && MOVES_RECEIVED.has(meta.name)) received.push(meta.name);
    });
    // The moves the watcher reads straight off the bytes raise no 'packet' event (crowd-moves.ts): the walker is the
    // only other entity it sees, so every one of them is the walker's.
    const readDirectly = () => structuredClone(crowdMovesReadDirectly(botOf(watcher))!);
    const before = readDirectly();
    await walker.goto({ kind: 'block', x: 12, y: 5, z: 6 });
    await walker.goto({ kind: 'block', x: -6, y: 5, z: -4 });
    for (const [kind, count] of Object.entries(readDirectly()))
      if (MOVES_RECEIVED.has(kind))
        for (let n = before[kind as keyof typeof before].packets; n < count.packets; n++) received.push(kind);

    // The walker sends a move every tick (its physics catches up when late); the server sends the watcher one
    // update every other tick at most (its ticks never catch up). flying-squid relayed each move, and each turn twice.
    expect(sent).toBeGreaterThan(40);
    expect(received.length).toBeLessThanOrEqual(Math.ceil(sent / 2) + 2);
    expect(received).toContain('entity_move_look');
    const seen = () => botOf(watcher).entities[botOf(walker).entity.id]?.position;
    const off = () => {
      // Where the server holds it now: the walker may still settle after its walk ends.
      const [at, truth] = [seen(), suite.server.player('walker')!.position];
      return at ? Math.hypot(at.x - truth.x, at.y - truth.y, at.z - truth.z) : Infinity;
    };
    expect(await eventually(() => off() < 0.01)).toBe(true);
  }, 60_000);
});
