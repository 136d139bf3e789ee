import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/index.js';
import { judgeStep, observation } from '../../src/testing/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import flee from './index.js';
import { threatPosition } from './threat.js';
import { match } from '../../test/helpers/matchers.js';

const at = (x: number, z = 0) => observation({ position: { x, y: 0, z } });

describe('flee', () => {
  it('defaults to 16 blocks, bounded to 4..64', () => {
    expect(flee.inputSchema.parse({})).toEqual({ distance: 16 });
    expect(flee.inputSchema.safeParse({ distance: 2 }).success).toBe(false);
    expect(flee.inputSchema.safeParse({ distance: 65 }).success).toBe(false);
    expect(flee.safetyLevel).toBe('caution');
  });

  it('flees the nearest hostile within 32 blocks, or a given position, and refuses when there is neither', async () => {
    const world = SimWorld.create({ clock: new ManualClock() });
    const guard = async (args: unknown) =>
      flee.guard({ world, observation: await world.observe() }, flee.inputSchema.parse(args));
    world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 2, y: 0, z: 0 } });
    world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 40, y: 0, z: 0 } });
    expect(await guard({})).toMatchObject({ ok: false, reason: match.stringMatching(/^nothing to flee from/) });
    expect(await guard({ from: { x: 3, y: 0, z: 0 } })).toEqual({ ok: true });
    world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: -10, y: 0, z: 0 } });
    world.spawnEntity({ name: 'creeper', kind: 'hostile', position: { x: 0, y: 0, z: 6 } });
    expect(await guard({})).toEqual({ ok: true });
    expect(threatPosition(flee.inputSchema.parse({}), world.entities(), world.position())).toEqual({
      x: 0,
      y: 0,
      z: 6,
    });
  });

  it('measures from the given danger, with one block of tolerance', () => {
    const args = flee.inputSchema.parse({ from: { x: 0, y: 0, z: 0 }, distance: 10 });
    expect(judgeStep(flee, at(2), at(9.6), args)).toEqual({ ok: true });
    expect(judgeStep(flee, at(2), at(9.4), args)).toEqual({
      ok: false,
      unmet: ['the bot is at least 9 blocks from (0.5, 0, 0.5): it is 8.9 blocks away'],
    });
  });

  it('without a danger position, measures the ground covered from the start', () => {
    const args = flee.inputSchema.parse({ distance: 8 });
    expect(judgeStep(flee, at(5), at(5, 7.5), args)).toEqual({ ok: true });
    expect(judgeStep(flee, at(5), at(5, 6), args)).toMatchObject({
      ok: false,
      unmet: ['the bot is at least 7 blocks from (5, 0, 0): it is 6.0 blocks away'],
    });
  });

  it('with clearOf, runs from the centre of those kinds and is judged by where they are at the end, not where it began', () => {
    const world = SimWorld.create({ clock: new ManualClock() });
    world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 4, y: 0, z: 0 } });
    world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 0, y: 0, z: 4 } });
    world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: -2, y: 0, z: 0 } });
    const args = flee.inputSchema.parse({ clearOf: ['zombie'], distance: 10 });
    expect(threatPosition(args, world.entities(), world.position())).toEqual({ x: 2, y: 0, z: 2 });
    const zombieAt = (x: number) => ({ id: 1, name: 'zombie', position: { x, y: 0, z: 0 }, health: 20 });
    const end = (zombie: number) => observation({ position: { x: 20, y: 0, z: 0 }, entities: [zombieAt(zombie)] });
    expect(judgeStep(flee, at(0), end(5), args)).toEqual({ ok: true });
    expect(judgeStep(flee, at(0), end(12), args)).toEqual({
      ok: false,
      unmet: ['no zombie is within 9 of the bot: a zombie (entity 1) at (12, 0, 0)'],
    });
  });
});
