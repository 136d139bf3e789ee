import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feetCell } from '../../src/contracts/stands-on.js';
import type { ActuationEvent } from '../../src/runtime/hooks.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { PARTIAL_BLOCKS } from '../helpers/partial-blocks.js';

/*
 * The SimWorld property's class (test/world/stands-on-sim.property.test.ts), on the embedded server: a real bot walked
 * through the executor onto any block whose collision top ends inside its cell, set on the grass (bots stand at y 5),
 * must be verified on its first try (one goto, no retry, no unstuck move) with its feet on the block's real top as
 * the server holds them. Each run draws a few blocks (a fresh seed, printed, so a failure replays with it);
 * VERBTREE_PROPERTY_RUNS draws more.
 */

const RUNS = Number(process.env.VERBTREE_PROPERTY_RUNS ?? 6);
const SEED = Number(process.env.VERBTREE_PROPERTY_SEED ?? Date.now() % 2 ** 31);
const GRASS_TOP = 5;

const suite = embeddedSuite({});

/** Walks a fresh bot onto `name` set on the grass at x,z; checks it stood there on its first try, then clears the field. */
async function walkOnto(
  { name, top }: { name: string; top: number },
  { x, z }: { x: number; z: number },
  username: string,
) {
  const at = { x, y: GRASS_TOP, z };
  const target = feetCell({ x, y: at.y + top, z });
  await suite.server.setBlock(at, name);
  const actuations: string[] = [];
  const { result, events, bot } = await suite.run(
    username,
    [{ stepId: 'onto', type: 'navigate', args: { target: { kind: 'block', ...target } } }],
    { hooks: { actuate: (event: ActuationEvent) => void actuations.push(event.command) } },
  );
  try {
    expect(result.ok, `${name}: ${result.detail ?? ''}`).toBe(true);
    expect(actuations, name).toEqual(['goto']);
    expect(result.steps[0], name).toMatchObject({ attempts: 1, retries: 0, repairs: 0 });
    expect(events.filter((e) => e.type === 'step.retry' || e.type === 'step.repair')).toEqual([]);
    const feet = suite.server.player(username)!.position;
    expect([Math.floor(feet.x), feet.y, Math.floor(feet.z)], name).toEqual([x, at.y + top, z]);
  } finally {
    // The next walk starts from a clear field: no body of this one's, no block of this one's.
    await bot.close();
    await suite.server.setBlock(at, 'air');
  }
}

describe('the embedded server: a real bot walked onto any partial-height block stands on it, verified first try', () => {
  it(`property: ${RUNS} of the ${PARTIAL_BLOCKS.length} blocks with a collision top inside the cell (seed ${SEED})`, async () => {
    console.log(`stands-on server property: seed ${SEED}, ${RUNS} runs (VERBTREE_PROPERTY_SEED replays it)`);
    const spot = fc.record({ x: fc.integer({ min: -5, max: 5 }), z: fc.integer({ min: 3, max: 6 }) });
    let walk = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PARTIAL_BLOCKS), spot, (block, at) => walkOnto(block, at, `walk-${walk++}`)),
      { numRuns: RUNS, seed: SEED },
    );
  }, 600_000);

  // CI's seed 1334654276: a young cocoa pod's top lies 0.06 to 0.31 into its cell, on the side the bot comes from.
  // Pathfinder called its node (0.34 from the edge) reached while the bot was still in the cell before, re-centred it
  // there and stalled; the walk stood on it only after a retry, a jump and two unstuck moves.
  it('a young cocoa pod, its narrow top at the near edge of its cell, straight ahead of the spawn', async () => {
    await walkOnto({ name: 'cocoa', top: 0.75 }, { x: 0, z: 6 }, 'cocoa-ahead');
  }, 120_000);
});
