import { describe, expect, it } from 'vitest';
import { unmetExpectation } from '../../src/contracts/expectation.js';
import type { ActuationEvent } from '../../src/runtime/hooks.js';
import { embeddedSuite } from '../helpers/embedded.js';

/*
 * A real bot on the embedded server (superflat: grass at y 4, bots stand at y 5) sent to stand on the partial-height
 * ground of farms and villages. Each walk must be verified on its first try: one attempt, no retry, no unstuck move
 * (the tree's commands as the runtime's actuate hook reports them, so a retry hidden inside the tree shows too), and
 * the server holds the feet exactly on the block's collision top.
 */

interface Case {
  block: string;
  /** Where the block is set: in the grass layer (y 4), on it (y 5). */
  at: { x: number; y: number; z: number };
  /** The cell a bot on it stands in, as a navigation goal names it. */
  target: { x: number; y: number; z: number };
  /** Where its feet rest: the block's collision top. */
  feetY: number;
}

const CASES: Case[] = [
  { block: 'farmland', at: { x: 4, y: 4, z: 0 }, target: { x: 4, y: 5, z: 0 }, feetY: 4.9375 },
  { block: 'dirt_path', at: { x: -4, y: 4, z: 0 }, target: { x: -4, y: 5, z: 0 }, feetY: 4.9375 },
  { block: 'soul_sand', at: { x: 0, y: 4, z: 4 }, target: { x: 0, y: 5, z: 4 }, feetY: 4.875 },
  { block: 'oak_slab', at: { x: 0, y: 5, z: -4 }, target: { x: 0, y: 6, z: -4 }, feetY: 5.5 },
  { block: 'chest', at: { x: 4, y: 5, z: 4 }, target: { x: 4, y: 6, z: 4 }, feetY: 5.875 },
  { block: 'white_carpet', at: { x: -4, y: 5, z: 4 }, target: { x: -4, y: 5, z: 4 }, feetY: 5.0625 },
  // One snow layer has no collision: the bot stands in its cell, on the grass.
  { block: 'snow', at: { x: 4, y: 5, z: -4 }, target: { x: 4, y: 5, z: -4 }, feetY: 5 },
];

const suite = embeddedSuite({ blocks: CASES.map(({ block, at }) => ({ ...at, block })) });

describe('a real bot walked onto partial-height ground stands on it, verified on the first try', () => {
  for (const { block, target, feetY } of CASES)
    it(`${block}: feet at ${feetY}, one attempt, one walk, no retry, no unstuck move`, async () => {
      const actuations: string[] = [];
      const { result, events } = await suite.run(
        `on-${block}`.slice(0, 16),
        [{ stepId: 'onto', type: 'navigate', args: { target: { kind: 'block', ...target } } }],
        { hooks: { actuate: (event: ActuationEvent) => void actuations.push(event.command) } },
      );
      expect(result.ok, result.detail).toBe(true);
      expect(actuations).toEqual(['goto']);
      expect(result.steps[0]).toMatchObject({ attempts: 1, retries: 0, repairs: 0 });
      expect(events.filter((e) => e.type === 'step.retry' || e.type === 'step.repair')).toEqual([]);
      const feet = suite.server.player(`on-${block}`.slice(0, 16))!.position;
      expect([Math.floor(feet.x), feet.y, Math.floor(feet.z)]).toEqual([target.x, feetY, target.z]);
    });

  it('a bot jumping on the farmland it stands on is not verified standing there while in the air', async () => {
    const target = CASES[0]!.target;
    const { result, bot } = await suite.run('jumper', [
      { stepId: 'onto', type: 'navigate', args: { target: { kind: 'block', ...target } } },
    ]);
    expect(result.ok, result.detail).toBe(true);
    const standing = { kind: 'position', goal: { kind: 'block', ...target } } as const;
    const jump = bot.move('jump', 400);
    // Reads the world as the jump goes: every reading in the air is refused, and the jump is seen in the air.
    const verdicts: (string | null)[] = [];
    let airborne = 0;
    for (let reading = 0; reading < 40 && airborne === 0; reading++) {
      const seen = await bot.observe();
      const verdict = unmetExpectation(standing, seen);
      verdicts.push(verdict);
      if (seen.footing?.onGround === false) {
        airborne++;
        expect(verdict).toMatch(/it is airborne/);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await jump;
    expect(airborne).toBeGreaterThan(0);
  });
});
