import { describe, expect, it } from 'vitest';
import { Vec3 } from 'vec3';
import type { Vec3Like } from '../../src/contracts/world.js';
import { botOf } from '../../src/world/mineflayer/index.js';
import { blastDamage } from '../../src/world/mob-rules/index.js';
import { deathsOf, type EmbeddedSuite, embeddedSuite } from '../helpers/embedded.js';
import { eventually } from '../helpers/eventually.js';

// A creeper on the embedded server, by the shared mob rules: it walks up to the bot, lights its 1.5 s fuse within
// 3 blocks (the client sees it swell: entity metadata 16, swell_dir, is 1), and blows up with power 3, hurting the bot
// by distance and breaking the grass around it; a bot that gets past 7 blocks first puts the fuse out.
// Superflat grass at y=4, the bots at 0,5,0, night.
const SWELL_DIR = 16;

/** The creeper's swell direction as the client holds it (prismarine-entity types metadata entries as objects). */
const swellOf = (client: ReturnType<typeof botOf>, id: number): unknown => client.entities[id]?.metadata?.[SWELL_DIR];

const suite = embeddedSuite({ timeOfDay: 18_000, mobs: [{ name: 'creeper', x: 6, y: 5, z: 0 }] });

const distance = (a: Vec3Like, b: Vec3Like) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

/** Connects a bot and waits until the creeper that comes for it swells: the client, its deaths and the creeper's id. */
async function untilLit(on: EmbeddedSuite, username: string) {
  const bot = await on.world.connectBot(username);
  const deaths = deathsOf(bot);
  const client = botOf(bot);
  const creeper = (await bot.observe({ entities: { names: ['creeper'], within: 32 } })).entities![0]!.id;
  expect(await eventually(() => swellOf(client, creeper) === 1, 20_000)).toBe(true);
  // The world port reads it so: the safety assessment's `swelling`.
  expect(bot.entities().find((e) => e.id === creeper)?.swelling).toBe(true);
  return { bot, client, deaths, creeper };
}

/**
 * The server's game tick stopped (as vanilla's `/tick freeze`: no fuse burns) while `during` runs, then restarted at
 * 20 a second: a bot can join mid-swell however long its login takes.
 */
async function frozen<T>(on: EmbeddedSuite, during: () => Promise<T>): Promise<T> {
  const serv = (
    on.server as unknown as { serv: { stopTickInterval(): void; setTickInterval(perSecond: number): void } }
  ).serv;
  serv.stopTickInterval();
  try {
    return await during();
  } finally {
    serv.setTickInterval(20);
  }
}

describe('a creeper on the embedded server', () => {
  it('walks up, swells for 1.5 s (a bot joining then sees it swelling) and explodes: the bot loses what its distance says, the grass around is gone', async () => {
    const { bot, client, creeper } = await untilLit(suite, 'target');
    // The swell is sent with the creeper's spawn to a bot that joins while it burns, not only when it changes.
    const late = await frozen(suite, async () => {
      const joined = await suite.world.connectBot('late');
      // Spawned for it once its login ends: wait for the creeper, not for its swell.
      expect(await eventually(() => botOf(joined).entities[creeper] !== undefined, 10_000)).toBe(true);
      return joined;
    });
    expect(swellOf(botOf(late), creeper)).toBe(1);
    expect(late.entities().find((e) => e.id === creeper)?.swelling).toBe(true);
    // It stands while its fuse burns: where it blows up, and how far off the bot is.
    const at = client.entities[creeper]!.position.clone();
    const gap = distance(at, suite.server.player('target')!.position);
    expect(gap).toBeLessThan(3);
    expect(await eventually(() => suite.server.player('target')!.health < 20, 5000)).toBe(true);
    // Open ground: the whole body exposed.
    expect(20 - suite.server.player('target')!.health).toBeCloseTo(Math.min(20, blastDamage(3, gap, 1)), 1);
    expect((await bot.observe({ entities: { names: ['creeper'], within: 32 } })).entities).toEqual([]);
    const below = new Vec3(Math.floor(at.x), 4, Math.floor(at.z));
    expect(await suite.server.blockAt(below)).toBe('air');
  }, 60_000);
});

const away = embeddedSuite({ timeOfDay: 18_000, mobs: [{ name: 'creeper', x: 6, y: 5, z: 0 }] });

describe('a creeper whose target runs', () => {
  it('puts its fuse out once the bot is past 7 blocks, and the bot is not hurt', async () => {
    const { bot, client, deaths, creeper } = await untilLit(away, 'runner');
    // Sprint straight away from it.
    const from = client.entities[creeper]!.position;
    const me = client.entity.position;
    await client.lookAt(new Vec3(2 * me.x - from.x, me.y + 1.6, 2 * me.z - from.z), true);
    client.setControlState('sprint', true);
    client.setControlState('forward', true);
    expect(await eventually(() => swellOf(client, creeper) === -1, 5000)).toBe(true);
    expect(bot.entities().find((e) => e.id === creeper)?.swelling).toBe(false);
    client.clearControlStates();
    expect(distance(client.entity.position, client.entities[creeper]!.position)).toBeGreaterThan(7);
    // Not hurt, and not blown up and respawned at 20 either.
    expect(deaths, JSON.stringify(deaths)).toEqual([]);
    expect(away.server.player('runner')!.health).toBe(20);
  }, 60_000);
});
