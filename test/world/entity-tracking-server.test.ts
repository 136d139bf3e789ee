import { describe, expect, it } from 'vitest';
import { startEmbeddedWorld } from '../../src/world/embedded/index.js';
import { botOf, type MineflayerWorld } from '../../src/world/mineflayer/index.js';
import { parseScenario } from '../../src/world/scenario/index.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Entity tracking by range: a bot is sent another entity only while it is within vanilla's tracking range (64 blocks,
 * horizontally, at the embedded server's view distance of 4 chunks), and nothing about it otherwise.
 */

// It stands where it is put (ai: false): this file is about who is told of it, not about what it does.
const MOB_AT = { x: 90, y: 5, z: 0 };
const suite = embeddedSuite({ bot: { inventory: { dirt: 4 } }, mobs: [{ name: 'zombie', ...MOB_AT, ai: false }] });

interface Received {
  name: string;
  data: { entityId?: number; entityIds?: number[]; z?: number };
}

/** Every packet `watcher` receives from now on that names the entity `id`. */
function packetsAbout(watcher: MineflayerWorld, id: () => number): Received[] {
  const received: Received[] = [];
  const client = (botOf(watcher) as unknown as { _client: NodeJS.EventEmitter })._client;
  client.on('packet', (data: Received['data'], meta: { name: string }) => {
    if (data.entityId === id() || data.entityIds?.includes(id())) received.push({ name: meta.name, data });
  });
  return received;
}

const seenAt = (watcher: MineflayerWorld, other: MineflayerWorld) =>
  botOf(watcher).entities[botOf(other).entity.id]?.position;

/** Teleports `bot` (a chat command; every player is an operator) and waits until the server has it there. */
async function teleport(bot: MineflayerWorld, x: number, z: number): Promise<void> {
  botOf(bot).chat(`/tp ${x} 5 ${z}`);
  const name = botOf(bot).username;
  const there = () => {
    const at = suite.server.player(name)?.position;
    return at !== undefined && Math.abs(at.x - x) < 1 && Math.abs(at.z - z) < 1;
  };
  expect(await eventually(there)).toBe(true);
}

const entitiesNamed = (watcher: MineflayerWorld, name: string) =>
  Object.values(botOf(watcher).entities).filter((entity) => entity.name === name);

describe('entity tracking on the embedded server', () => {
  it('a bot out of range receives nothing of another one walking, and is not shown it', async () => {
    const watcher = await suite.world.connectBot('still-a');
    const walker = await suite.world.connectBot('walker-a');
    expect(await eventually(() => seenAt(watcher, walker) !== undefined)).toBe(true);
    await teleport(walker, 100, 0);
    expect(await eventually(() => seenAt(watcher, walker) === undefined)).toBe(true);

    const about = packetsAbout(watcher, () => botOf(walker).entity.id);
    await walker.goto({ kind: 'block', x: 92, y: 5, z: 0 });
    await walker.goto({ kind: 'block', x: 96, y: 5, z: 4 });
    expect(about.map((packet) => packet.name)).toEqual([]);
    expect(seenAt(watcher, walker)).toBeUndefined();
  }, 60_000);

  it('a bot walking into range is spawned where it is, and destroyed once it walks out again', async () => {
    const watcher = await suite.world.connectBot('still-b');
    const walker = await suite.world.connectBot('walker-b');
    await teleport(walker, 0, 72);
    expect(await eventually(() => seenAt(watcher, walker) === undefined)).toBe(true);

    const about = packetsAbout(watcher, () => botOf(walker).entity.id);
    await walker.goto({ kind: 'block', x: 0, y: 5, z: 56 });
    const spawn = about.find((packet) => packet.name === 'spawn_entity');
    // The range is crossed at z 64.5 (the watcher stands at 0.5); the spawn comes within a block of it.
    expect(Math.abs((spawn?.data.z ?? NaN) - 64.5)).toBeLessThanOrEqual(1.5);
    expect(about.slice(0, about.indexOf(spawn!)).map((packet) => packet.name)).toEqual([]);
    // Where the server holds it now: the walker may still settle after its walk ends.
    const offZ = () => Math.abs((seenAt(watcher, walker)?.z ?? NaN) - suite.server.player('walker-b')!.position.z);
    expect(await eventually(() => offZ() < 0.01)).toBe(true);

    await walker.goto({ kind: 'block', x: 0, y: 5, z: 70 });
    expect(await eventually(() => seenAt(watcher, walker) === undefined)).toBe(true);
    expect(about.at(-1)?.name).toBe('entity_destroy');
  }, 60_000);

  it('a drop out of range is shown to a bot once it comes near, and destroyed on it when it leaves', async () => {
    const watcher = await suite.world.connectBot('still-c');
    const thrower = await suite.world.connectBot('thrower-c');
    await teleport(thrower, -80, 20);
    const drops = () => entitiesNamed(watcher, 'item').filter((item) => item.position.x < -70);
    await thrower.toss('dirt', 1);
    expect(await eventually(() => entitiesNamed(thrower, 'item').length > 0)).toBe(true);
    expect(drops()).toEqual([]);

    await teleport(watcher, -30, 20);
    expect(await eventually(() => drops().length === 1)).toBe(true);
    const [drop] = drops();
    expect(Math.abs(drop!.position.z - 20)).toBeLessThan(4);
    await teleport(watcher, 0, 20);
    expect(await eventually(() => drops().length === 0)).toBe(true);
  }, 60_000);

  it('a mob out of range is shown to a bot once it comes near, where it stands, and destroyed when it leaves', async () => {
    const watcher = await suite.world.connectBot('still-d');
    expect(entitiesNamed(watcher, 'zombie')).toEqual([]);

    await teleport(watcher, 40, 0);
    expect(await eventually(() => entitiesNamed(watcher, 'zombie').length === 1)).toBe(true);
    expect(entitiesNamed(watcher, 'zombie')[0]!.position).toMatchObject({ x: MOB_AT.x + 0.5, z: MOB_AT.z + 0.5 });
    await teleport(watcher, 0, 0);
    expect(await eventually(() => entitiesNamed(watcher, 'zombie').length === 0)).toBe(true);
  }, 60_000);
});

describe('entity tracking with a configured range', () => {
  it('entityTrackingRange caps how far a bot is sent other players', async () => {
    const world = await startEmbeddedWorld({
      scenario: parseScenario({ name: 'short-range' }),
      entityTrackingRange: 16,
    });
    try {
      const [watcher, mover] = [await world.connectBot('near-a'), await world.connectBot('near-b')];
      expect(await eventually(() => seenAt(watcher, mover) !== undefined)).toBe(true);
      botOf(mover).chat('/tp 20 5 0');
      expect(await eventually(() => seenAt(watcher, mover) === undefined)).toBe(true);
      botOf(mover).chat('/tp 12 5 0');
      expect(await eventually(() => Math.abs((seenAt(watcher, mover)?.x ?? NaN) - 12.5) < 0.01)).toBe(true);
    } finally {
      await world.stop();
    }
  }, 60_000);
});
