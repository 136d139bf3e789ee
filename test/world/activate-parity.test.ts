import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { type BlockState, type Vec3Like, type WorldPort, WorldError } from '../../src/contracts/world.js';
import { SimWorld, settle } from '../../src/world/sim/index.js';
import { embeddedSuite } from '../helpers/embedded.js';

/*
 * The activate actuator on both worlds, case by case: the same block, the same
 * item, the same outcome (the new state, or the refusal's code), as each
 * world's truth holds it. The embedded world's ground: grass at y=4, dirt
 * below; the bot spawns at (0, 5, 0). SimWorld is laid out the same way.
 */

const blocks: { at: Vec3Like; name: string }[] = [
  { at: { x: 2, y: 5, z: 1 }, name: 'birch_door' },
  { at: { x: 2, y: 6, z: 1 }, name: 'birch_door' },
  { at: { x: -2, y: 5, z: 1 }, name: 'spruce_trapdoor' },
  { at: { x: 1, y: 5, z: -2 }, name: 'oak_fence_gate' },
  { at: { x: -1, y: 5, z: -2 }, name: 'lever' },
  { at: { x: 3, y: 5, z: -1 }, name: 'iron_door' },
  { at: { x: -3, y: 5, z: 0 }, name: 'stone' },
  { at: { x: 9, y: 5, z: 9 }, name: 'lever' },
];

type Case = { at: Vec3Like; item?: string; then: BlockState | string };
const cases: Case[] = [
  { at: { x: 2, y: 6, z: 1 }, then: { name: 'birch_door', properties: { open: true } } },
  { at: { x: 2, y: 5, z: 1 }, then: { name: 'birch_door', properties: { open: false } } },
  { at: { x: -2, y: 5, z: 1 }, then: { name: 'spruce_trapdoor', properties: { open: true } } },
  { at: { x: 1, y: 5, z: -2 }, then: { name: 'oak_fence_gate', properties: { open: true } } },
  { at: { x: -1, y: 5, z: -2 }, then: { name: 'lever', properties: { powered: true } } },
  { at: { x: -1, y: 5, z: -2 }, then: { name: 'lever', properties: { powered: false } } },
  { at: { x: 3, y: 5, z: -1 }, then: 'guard_failed' },
  { at: { x: -3, y: 5, z: 0 }, then: 'guard_failed' },
  { at: { x: 0, y: 4, z: 2 }, item: 'dirt', then: 'guard_failed' },
  { at: { x: 0, y: 4, z: 2 }, item: 'stone_hoe', then: 'precondition_missing' },
  { at: { x: 0, y: 4, z: 2 }, item: 'wooden_hoe', then: { name: 'farmland', properties: {} } },
  { at: { x: -3, y: 4, z: 0 }, item: 'wooden_hoe', then: 'precondition_missing' },
  { at: { x: 9, y: 5, z: 9 }, then: 'precondition_missing' },
];

/** Each case's outcome: the block's state after, or the refusal's code; and, with the door, its other half. */
async function outcomes(world: WorldPort, act: (p: Promise<void>) => Promise<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  for (const c of cases) {
    const error = await act(world.activate!(c.at, c.item ? { item: c.item } : {})).then(
      () => null,
      (e: unknown) => e,
    );
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the actuator's rejection as it was
    if (error && !(error instanceof WorldError)) throw error;
    const states = (await world.observe({ states: [c.at, { x: 2, y: 5, z: 1 }] })).states!;
    seen.push(error ? (error as WorldError).code : states[`${c.at.x},${c.at.y},${c.at.z}`]);
    if (c.at.x === 2) seen.push(states['2,5,1']);
  }
  return seen;
}

const expected = cases.flatMap((c) => [c.then, ...(c.at.x === 2 ? [c.then] : [])]);

describe('activate: the same outcomes on SimWorld and the embedded server', () => {
  it('SimWorld', async () => {
    const clock = new ManualClock();
    const sim = SimWorld.create({
      clock,
      ground: { top: 4, surface: 'grass_block', filler: 'dirt', deep: 'dirt', fillerDepth: 3, bottom: 0 },
      spawn: { x: 0.5, y: 5, z: 0.5 },
      blocks: blocks.map((b) => ({ position: b.at, name: b.name })),
      inventory: { wooden_hoe: 1, dirt: 1 },
    });
    const act = async (p: Promise<void>) => {
      const outcome = await settle(clock, p);
      if (outcome.state !== 'ok')
        throw new WorldError(
          outcome.state === 'rejected' ? (outcome.code as never) : 'hanging_invocation',
          JSON.stringify(outcome),
        );
    };
    expect(await outcomes(sim, act)).toEqual(expected);
  });

  const suite = embeddedSuite({
    blocks: blocks.map((b) => ({ ...b.at, block: b.name })),
    bot: { inventory: { wooden_hoe: 1, dirt: 1 } },
  });
  it('embedded server', async () => {
    const bot = await suite.world.connectBot('opener');
    expect(await outcomes(bot, (p) => p)).toEqual(expected);
  }, 60_000);
});
