// A property test of the user's own verb with verbtree's kit: wave runs end to end through the executor on
// SimWorld over generated spots and generated faults (hangs, throws, actuators that report success without
// effect…), and every run must keep the executor's invariants and end ok only when the bot really stands
// within 1 block of the spot. Run with `npm test` (node's own test runner).
import fc from 'fast-check';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SimWorld } from 'verbtree/sim';
import { checkCapability } from 'verbtree/testing';
import { wave } from '../capabilities/wave.mjs';

const trees = fileURLToPath(new URL('../trees', import.meta.url));
// Spots on SimWorld's default ground (the bot spawns at 0,0,0 on a floor at y -1).
const spots = fc.record({
  spot: fc.record({ x: fc.integer({ min: -8, max: 8 }), y: fc.constant(0), z: fc.integer({ min: -8, max: 8 }) }),
});
const within1 = ({ spot }, _before, world) => {
  const at = world.position();
  const off = Math.hypot(Math.floor(at.x) - spot.x, Math.floor(at.y) - spot.y, Math.floor(at.z) - spot.z);
  return off <= 1 ? null : `the bot stands at ${JSON.stringify(at)}, ${off.toFixed(2)} blocks from the spot`;
};

test('wave keeps the executor invariants and ends ok only beside its spot, under generated faults', async () => {
  const report = await checkCapability(wave, {
    world: (_args, clock) => SimWorld.create({ clock }),
    args: spots,
    effect: within1,
    extraTreePaths: [trees],
    numRuns: 40,
    seed: 11,
  });
  if (report.ok === 0) throw new Error(`no run ended ok: ${JSON.stringify(report)}`);
});
