import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import digBlock from '../../capabilities/dig_block/index.js';
import { defineCapability } from '../../src/index.js';
import { checkCapability } from '../../src/testing/index.js';
import { SimWorld } from '../../src/world/sim/index.js';

/** A dirt block a few steps from the bot, on the default ground (y -1 and below). */
const near = fc.record({
  x: fc.integer({ min: 2, max: 6 }),
  y: fc.integer({ min: 0, max: 1 }),
  z: fc.integer({ min: -3, max: 3 }),
});
const digArgs = near.map((position) => digBlock.inputSchema.parse({ position }));
const withDirt = (
  args: { position: { x: number; y: number; z: number } },
  clock: Parameters<typeof SimWorld.create>[0]['clock'],
) => SimWorld.create({ clock }).setBlock(args.position, 'dirt');
const dug = (args: { position: { x: number; y: number; z: number } }, _before: unknown, world: SimWorld) =>
  world.blockAt(args.position)?.name === 'air'
    ? null
    : `the block at ${JSON.stringify(args.position)} is ${world.blockAt(args.position)?.name}`;

describe('checkCapability', () => {
  it('passes dig_block over generated positions and fault schedules, and reports what it ran', async () => {
    const report = await checkCapability(digBlock, {
      world: withDirt,
      args: digArgs,
      effect: dug,
      registry: createDefaultRegistry(),
      numRuns: 30,
      seed: 7,
    });
    expect(report.runs).toBe(30);
    expect(report.ok).toBeGreaterThan(0);
    expect(Object.keys(report.failed).length).toBeGreaterThan(0);
  });

  it('catches a planted bug in acceptance (it expects nothing) under wrong_effects faults, shrunk to a small case', async () => {
    const lax = defineCapability({ ...digBlock, name: 'lax_dig', expect: () => [] });
    const run = checkCapability(lax, { world: withDirt, args: digArgs, effect: dug, numRuns: 60, seed: 3 });
    await expect(run).rejects.toThrow(
      /acceptance agrees with the world: the step ended ok but the block at .* is dirt/,
    );
    await expect(run).rejects.toThrow(
      /counterexample \(shrunk \d+ times\): args \{"position":\{"x":2,"y":0,"z":-?\d\}\}, fault wrong_effects/,
    );
  });

  it('catches an actuator a binding leaves running after its step', async () => {
    const leaky = defineCapability({
      ...digBlock,
      name: 'leaky_dig',
      bindings: {
        ...digBlock.bindings,
        actions: {
          ...digBlock.bindings!.actions,
          // Starts a walk it never waits for, then digs: the walk outlives the step.
          dig_block_break: (ctx) => {
            void ctx.world.goto({ kind: 'xz', x: 40, z: 40 }).catch(() => undefined);
            return digBlock.bindings!.actions!.dig_block_break!(ctx);
          },
        },
      },
    });
    await expect(
      checkCapability(leaky, { world: withDirt, args: digArgs, faults: false, numRuns: 5, seed: 1 }),
    ).rejects.toThrow(/no live actuator at the end|no actuator after its step/);
  });
});
