import { describe, expect, it } from 'vitest';
import { MAX_AIR, PLAYER_EYE_HEIGHT } from '../../src/world/breath-rules.js';
import { embeddedSuite } from '../helpers/embedded.js';

/*
 * A pit of water three blocks wide and four deep (y=1..4, its top level with the superflat's grass) walled above the
 * ground by two courses of stone (y=5..6) all round: the bank stands three blocks over the water's top, higher than a
 * swimmer climbs, so a bot in it has no way out. Bots spawn on the pit's floor, under four blocks of water.
 */
const suite = embeddedSuite({
  spawn: { x: 0, y: 1, z: 0 },
  fills: [
    { from: { x: -2, y: 5, z: -2 }, to: { x: 2, y: 6, z: 2 }, block: 'stone' },
    { from: { x: -1, y: 1, z: -1 }, to: { x: 1, y: 4, z: 1 }, block: 'water' },
    { from: { x: -1, y: 5, z: -1 }, to: { x: 1, y: 6, z: 1 }, block: 'air' },
  ],
});
/** The top of the pit's water: a source block fills 8/9 of its cell (y=4). */
const WATER_SURFACE = 4 + 8 / 9;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a bot stranded in water with no way out (embedded server)', () => {
  it('fails its walk explicitly, naming the water and its air, and is left at the surface breathing', async () => {
    const { result, deaths } = await suite.run('castaway', [
      { stepId: 'ashore', type: 'navigate', args: { target: { kind: 'block', x: 12, y: 5, z: 0 } } },
    ]);
    const step = result.steps.find((s) => s.step.stepId === 'ashore')!;
    expect(step.outcome.ok).toBe(false);
    const detail = step.outcome.ok ? '' : step.outcome.detail;
    expect(detail).toMatch(/in water at -?\d+,\d+,-?\d+ with \d+ of 300 air/);

    // With the step over nothing drives the bot: the world keeps it afloat, its eyes above the surface, as a player
    // holding jump. Its air is full once it breathes, and stays full (sampled for two seconds, 40 server ticks).
    const player = () => suite.server.player('castaway')!;
    for (let waited = 0; player().air < MAX_AIR && waited < 10_000; waited += 100) await pause(100);
    for (let sample = 0; sample < 10; sample++) {
      expect(player().air).toBe(MAX_AIR);
      expect(player().position.y + PLAYER_EYE_HEIGHT).toBeGreaterThan(WATER_SURFACE);
      await pause(200);
    }
    // Never hurt by the water (a drowned bot would respawn at 20, down here in the pit again).
    expect(deaths, JSON.stringify(deaths)).toEqual([]);
    expect(player().health).toBe(20);
  }, 120_000);
});
