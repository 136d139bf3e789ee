import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { HOSTILE_STATS, LEAP_MAX, TICK_MS } from '../../src/world/mob-rules/index.js';
import { SimWorld, WALK_SPEED } from '../../src/world/sim/index.js';

/*
 * What `keepsPace` (src/executor/safety/flight.ts) rests on, by the mob rules on flat ground: a spider walks 3.9
 * blocks/s to the bot's 4.3, so the bot walking away outruns one that is not yet within its leap's range; one that is
 * (2 to 4 blocks) leaps, gains on the bot at each leap and stays on it, biting. docs/defense.md, "Never run from what
 * keeps pace".
 */

/** How long a chase is watched: a flight from walkers lasts about 4.6 s (FLIGHT_SECONDS). */
const WATCH_MS = 5_000;

/** The bot walks 60 blocks east from 0,5,0 at midnight, a spider `behind` blocks west of it: the gap and the bites. */
async function walkAwayFrom(behind: number, seed: number) {
  const clock = new ManualClock();
  const world = SimWorld.create({
    clock,
    seed,
    ground: { top: 4, radius: 80 },
    spawn: { x: 0, y: 5, z: 0 },
    timeOfDay: 18_000,
  });
  const spider = world.spawnEntity({
    name: 'spider',
    kind: 'hostile',
    position: { x: 0.5 - behind, y: 5, z: 0.5 },
    ai: true,
  });
  void world.goto({ kind: 'block', x: 60, y: 5, z: 0 }).catch(() => undefined);
  const gaps: number[] = [];
  for (let waited = 0; waited < WATCH_MS; waited += TICK_MS) {
    await clock.advance(TICK_MS);
    const at = world.entities().find((e) => e.id === spider)!.position;
    gaps.push(Math.hypot(at.x - world.position().x, at.z - world.position().z));
  }
  return { gaps, lost: 20 - world.health() };
}

describe('a spider chasing a bot that walks away on flat ground (SimWorld, the mob rules)', () => {
  it('walks slower than the bot: 3.9 blocks/s to 4.3', () => {
    expect(HOSTILE_STATS.spider!.speed).toBeCloseTo(3.89, 2);
    expect(HOSTILE_STATS.spider!.speed).toBeLessThan(WALK_SPEED);
  });

  it('beyond its leap range at the start, it never catches up: the gap grows and the bot is never bitten', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 5, max: 10 }),
        async (seed, behind) => {
          const { gaps, lost } = await walkAwayFrom(behind, seed);
          const summary = JSON.stringify({ seed, behind, gaps: gaps.filter((_, i) => i % 10 === 0), lost });
          expect(Math.min(...gaps), summary).toBeGreaterThan(LEAP_MAX);
          expect(gaps.at(-1)!, summary).toBeGreaterThan(behind);
          expect(lost, summary).toBe(0);
        },
      ),
      { numRuns: 30, seed: 20_261_207 },
    );
  });

  it('within its leap range at the start, it mostly keeps up by its leaps and bites the bot all the way', async () => {
    const runs: Awaited<ReturnType<typeof walkAwayFrom>>[] = [];
    for (let seed = 1; seed <= 12; seed++) runs.push(await walkAwayFrom(2, seed));
    const keptUp = runs.filter(({ gaps, lost }) => gaps.at(-1)! < 2.5 && lost >= 6);
    expect(keptUp.length, JSON.stringify(runs.map(({ gaps, lost }) => [gaps.at(-1), lost]))).toBeGreaterThanOrEqual(8);
  });
});
