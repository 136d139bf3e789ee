import { describe, expect, it } from 'vitest';
import type { Vec3Like } from '../../src/contracts/world.js';
import { parseScenario } from '../../src/world/scenario/index.js';
import { serverTicked, simTicked, type TickedSide } from '../helpers/ticked-side.js';
import { worldPair } from '../helpers/world-pair.js';

/*
 * A creeper's fuse (mob-rules/brain.ts: swell) on both worlds: one world of each for the file, the cases played in
 * order on both with the same moves, read tick by tick (SimWorld's clock, the server's own game ticks) from the
 * world's truth: the creeper's position and presence, the bot's position and health, and the swell the world shows
 * (SimWorld's entity, the server's metadata as it sends it). Superflat grass at y=4, night, the bot at
 * (0, 5, 0), one creeper 6 blocks off.
 *
 * The wiki (Creeper): it lights its fuse within 3 blocks of the player, the fuse goes out if the player gets more than
 * 7 blocks away, and a lit fuse explodes 1.5 s (30 game ticks) later.
 */

const SCENARIO = parseScenario({
  name: 'creeper-parity',
  timeOfDay: 18_000,
  mobs: [{ name: 'creeper', x: 6, y: 5, z: 0 }],
});
const LOOK = { names: ['creeper'], within: 64 };

interface Sample {
  tick: number;
  /** Blocks from the creeper's feet to the bot's (undefined once the creeper is gone). */
  gap: number | undefined;
  /** The world shows the creeper swelling. */
  lit: boolean;
  health: number;
}

const distance = (a: Vec3Like, b: Vec3Like) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

/** Samples the world each tick until `done` holds of a sample (at most `limit` ticks): the samples. */
async function sample(side: TickedSide, done: (s: Sample) => boolean, limit: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let n = 0; n < limit; n++) {
    const tick = await side.tick();
    const [creeper] = await side.mobs(LOOK);
    const bot = side.bot();
    const lit = creeper !== undefined && side.shown(creeper.id).swelling === true;
    const s = { tick, gap: creeper && distance(creeper.position, bot.position), lit, health: bot.health };
    samples.push(s);
    if (done(s)) return samples;
  }
  throw new Error(`not done in ${limit} ticks; the last sample: ${JSON.stringify(samples.at(-1))}`);
}

/**
 * The creeper walks up to the still bot and lights; the bot walks off to (-14, 0) at once: where the fuse lit, where it
 * went out, and whether the bot was hurt.
 */
async function runAway(side: TickedSide) {
  const lit = (await sample(side, (s) => s.lit, 600)).at(-1)!;
  const walk = side.world.goto({ kind: 'xz', x: -14, z: 0, range: 0.5 });
  const burning = await sample(side, (s) => !s.lit, 60);
  await side.finish(walk);
  const out = burning.at(-1)!;
  const lastLit = burning.at(-2)!;
  return {
    litAt: lit.gap!,
    lastLitAt: lastLit.gap!,
    outAt: out.gap!,
    hurt: out.health < 20,
    creeperLeft: out.gap !== undefined,
  };
}

/** The creeper walks back up to the bot, now still: the ticks from its first within 3 blocks to its blast. */
async function standStill(side: TickedSide) {
  const samples = await sample(side, (s) => s.gap === undefined, 1200);
  const within = samples.find((s) => s.gap !== undefined && s.gap < 3)!;
  const blast = samples.at(-1)!;
  return { fuseTicks: blast.tick - within.tick, hurt: blast.health < 20 };
}

describe("a creeper's fuse agrees on SimWorld and the embedded server", () => {
  const both = worldPair(SCENARIO, 'runner', { sim: simTicked, server: serverTicked });

  it('lights within 3 blocks and goes out the first tick the bot is past 7, before it burns down: no blast', async () => {
    const [simRun, serverRun] = await both(runAway);
    for (const run of [simRun, serverRun]) {
      expect(run).toMatchObject({ hurt: false, creeperLeft: true });
      expect(run.litAt).toBeLessThan(3);
      // Burning while the bot was within 7, out at the first tick it was past them (SimWorld's bot walks a block a
      // step, the server's a fraction of one a tick: how far past differs, the line does not).
      expect(run.lastLitAt).toBeLessThanOrEqual(7);
      expect(run.outAt).toBeGreaterThan(7);
    }
    // Both walked the same creeper up to the same still bot.
    expect(serverRun.litAt).toBeCloseTo(simRun.litAt, 2);
  }, 60_000);

  // Its first tick within 3 blocks, it lights on the next (the walk that brought it in came after that tick's look).
  it('walks back up, lights within 3 blocks and blows up 30 ticks (1.5 s) after it came within them', async () => {
    const [simFuse, serverFuse] = await both(standStill);
    expect(simFuse).toEqual({ fuseTicks: 30, hurt: true });
    expect(serverFuse).toEqual(simFuse);
  }, 90_000);
});
