import { describe, expect, it } from 'vitest';
import type { LivingEntity } from '../../src/contracts/world.js';
import { parseScenario } from '../../src/world/scenario/index.js';
import { serverTicked, simTicked, type TickedSide } from '../helpers/ticked-side.js';
import { worldPair } from '../helpers/world-pair.js';

/*
 * A spider (mob-rules/brain.ts: neutral in bright light, a climber's walk) on both worlds: one world of each for the
 * file, the cases played in order on both, read tick by tick (SimWorld's clock, the server's own game ticks) from the
 * world's truth: the spider's position, the bot's health, the flag each world shows when a mob is after someone.
 * Superflat grass at y=4; the bot on a stone block three high (its top at y=7, the bot at (0, 8, 0)) that a zombie
 * could never step onto; the spider on the ground 6 blocks off.
 *
 * The wiki (Spider): neutral in light level 12 or more (daylight in the open), hostile in the dark; it climbs walls;
 * a bite does 2 on Normal.
 */

const SCENARIO = parseScenario({
  name: 'spider-parity',
  timeOfDay: 6000,
  spawn: { x: 0, y: 8, z: 0 },
  fills: [{ from: { x: -1, y: 5, z: -1 }, to: { x: 1, y: 7, z: 1 }, block: 'stone' }],
  mobs: [{ name: 'spider', x: 6, y: 5, z: 0 }],
});
const LOOK = { names: ['spider'], within: 32 };

interface Sample {
  spider: LivingEntity;
  aggressive: boolean;
  health: number;
}

/** Samples the world each tick for `ticks` ticks, or until `done` holds of a sample: the samples. */
async function sample(side: TickedSide, ticks: number, done: (s: Sample) => boolean = () => false) {
  const samples: Sample[] = [];
  for (let n = 0; n < ticks; n++) {
    await side.tick();
    const [spider] = await side.mobs(LOOK);
    const s = { spider: spider!, aggressive: side.shown(spider!.id).aggressive === true, health: side.bot().health };
    samples.push(s);
    if (done(s)) return samples;
  }
  return samples;
}

/** Noon, for 5 s: how far the spider went, whether it ever showed itself after the bot, whether the bot was hurt. */
async function byDay(side: TickedSide) {
  const samples = await sample(side, 100);
  const [first, last] = [samples[0]!.spider.position, samples.at(-1)!.spider.position];
  return {
    moved: Math.round(Math.hypot(last.x - first.x, last.y - first.y, last.z - first.z) * 100) / 100,
    everAggressive: samples.some((s) => s.aggressive),
    hurt: samples.some((s) => s.health < 20),
  };
}

/** Midnight, until the bot is bitten: the bite, where the spider stood, whether it hung on the wall on its way up. */
async function atNight(side: TickedSide) {
  side.setTimeOfDay(18_000);
  const samples = await sample(side, 1200, (s) => s.health < 20);
  const bite = samples.at(-1)!;
  return {
    bite: 20 - bite.health,
    spiderOnTop: bite.spider.position.y,
    // On the block's side (x past its face at 2), between the ground and the top.
    hungOnTheWall: samples.some(({ spider: { position } }) => position.y > 5.5 && position.y < 7.5 && position.x > 1.9),
    aggressive: bite.aggressive,
  };
}

describe('a spider agrees on SimWorld and the embedded server', () => {
  const both = worldPair(SCENARIO, 'perched', { sim: simTicked, server: serverTicked });

  it('by day, in the open, it leaves the bot alone: it stays where it stood and never shows itself after it', async () => {
    for (const day of await both(byDay)) expect(day).toEqual({ moved: 0, everAggressive: false, hurt: false });
  }, 30_000);

  it('at night it climbs the 3-block wall to the bot on top and bites it for 2', async () => {
    for (const night of await both(atNight))
      expect(night).toEqual({ bite: 2, spiderOnTop: 8, hungOnTheWall: true, aggressive: true });
  }, 90_000);
});
