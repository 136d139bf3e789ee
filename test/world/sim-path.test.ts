import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { PathStatus } from '../../src/contracts/world.js';
import { SimWorld, WALK_STEP_MS, settle, track } from '../../src/world/sim/index.js';

function world(extra: Partial<Parameters<typeof SimWorld.create>[0]> = {}) {
  const clock = new ManualClock();
  const sim = SimWorld.create({ clock, ...extra });
  const statuses: PathStatus[] = [];
  sim.events.on('path', (status) => statuses.push(status));
  return { clock, sim, statuses };
}

describe('SimWorld goto: path search', () => {
  it('walks a straight line to a block goal and says planned then reached', async () => {
    const { clock, sim, statuses } = world();
    expect(await settle(clock, sim.goto({ kind: 'block', x: 5, y: 0, z: 0 }))).toEqual({ state: 'ok' });
    expect(sim.position()).toEqual({ x: 5.5, y: 0, z: 0.5 });
    expect(statuses).toEqual(['planned', 'reached']);
  });

  it('detours around a wall with a gap', async () => {
    const { clock, sim } = world();
    sim
      .fill({ x: 2, y: 0, z: -10 }, { x: 2, y: 2, z: 10 }, 'stone')
      .fill({ x: 2, y: 0, z: 3 }, { x: 2, y: 1, z: 3 }, 'air');
    const visited: string[] = [];
    sim.onMoved((p) => visited.push(`${p.x - 0.5},${p.z - 0.5}`));
    expect(await settle(clock, sim.goto({ kind: 'block', x: 4, y: 0, z: 0 }))).toEqual({ state: 'ok' });
    expect(visited).toContain('2,3');
    expect(visited.length).toBe(4 + 2 * 3);
  });

  it('steps up one block and drops down up to three, but does not climb two', async () => {
    const { clock, sim } = world();
    sim.setBlock({ x: 1, y: 0, z: 0 }, 'dirt');
    expect(await settle(clock, sim.goto({ kind: 'block', x: 1, y: 1, z: 0 }))).toEqual({ state: 'ok' });
    sim.fill({ x: 5, y: 0, z: 0 }, { x: 5, y: 1, z: 0 }, 'dirt');
    expect(await settle(clock, sim.goto({ kind: 'block', x: 5, y: 2, z: 0 }))).toMatchObject({
      state: 'rejected',
      code: 'no_path',
    });
    sim.fill({ x: 0, y: 0, z: 3 }, { x: 0, y: 3, z: 3 }, 'dirt').teleport({ x: 0, y: 4, z: 3 });
    expect(await settle(clock, sim.goto({ kind: 'block', x: 1, y: 0, z: 3 }))).toMatchObject({
      state: 'rejected',
      code: 'no_path',
    });
    sim.setBlock({ x: 0, y: 3, z: 3 }, 'air').teleport({ x: 0, y: 3, z: 3 });
    expect(await settle(clock, sim.goto({ kind: 'block', x: 1, y: 0, z: 3 }))).toEqual({ state: 'ok' });
  });

  it('needs headroom to jump a step: a block above the head blocks the step up', async () => {
    const { clock, sim } = world({ ground: { radius: 3 } });
    sim.setBlock({ x: 1, y: 0, z: 0 }, 'dirt').setBlock({ x: 0, y: 2, z: 0 }, 'stone');
    sim
      .fill({ x: 1, y: 0, z: 1 }, { x: 1, y: 2, z: 1 }, 'bedrock')
      .fill({ x: 1, y: 0, z: -1 }, { x: 1, y: 2, z: -1 }, 'bedrock');
    sim
      .fill({ x: -1, y: 0, z: -1 }, { x: -1, y: 2, z: 1 }, 'bedrock')
      .fill({ x: 0, y: 0, z: 1 }, { x: 0, y: 2, z: 1 }, 'bedrock')
      .fill({ x: 0, y: 0, z: -1 }, { x: 0, y: 2, z: -1 }, 'bedrock');
    expect(await settle(clock, sim.goto({ kind: 'block', x: 1, y: 1, z: 0 }))).toMatchObject({
      state: 'rejected',
      code: 'no_path',
    });
    sim.setBlock({ x: 0, y: 2, z: 0 }, 'air');
    expect(await settle(clock, sim.goto({ kind: 'block', x: 1, y: 1, z: 0 }))).toEqual({ state: 'ok' });
  });

  it('rejects an enclosed target with no_path at once after exhausting the reachable area', async () => {
    const { clock, sim, statuses } = world({ ground: { radius: 10 } });
    sim
      .fill({ x: 4, y: 0, z: -1 }, { x: 6, y: 3, z: 1 }, 'bedrock')
      .fill({ x: 5, y: 0, z: 0 }, { x: 5, y: 1, z: 0 }, 'air');
    const outcome = track(sim.goto({ kind: 'block', x: 5, y: 0, z: 0 }));
    await clock.advance(0);
    expect(outcome.outcome).toMatchObject({ state: 'rejected', code: 'no_path' });
    expect(statuses).toEqual(['noPath']);
    expect(clock.now()).toBe(0);
  });

  it('gives up with timeout when the node limit runs out on open ground', async () => {
    const { clock, sim, statuses } = world({ maxSearchNodes: 500 });
    expect(await settle(clock, sim.goto({ kind: 'block', x: 0, y: 5, z: 0 }))).toMatchObject({
      state: 'rejected',
      code: 'no_path',
    });
    expect(statuses).toEqual(['timeout']);
  });

  it('walks partial paths towards a goal beyond the node limit, then plans the rest', async () => {
    const { clock, sim, statuses } = world({ maxSearchNodes: 20 });
    expect(await settle(clock, sim.goto({ kind: 'block', x: 50, y: 0, z: 0 }))).toEqual({ state: 'ok' });
    expect(sim.position()).toEqual({ x: 50.5, y: 0, z: 0.5 });
    expect(statuses.filter((s) => s === 'partial').length).toBeGreaterThan(1);
    expect(statuses.slice(-2)).toEqual(['planned', 'reached']);
  });

  it('stops taking partial paths once they no longer get closer, and rejects no_path', async () => {
    const { clock, sim, statuses } = world({ maxSearchNodes: 200 });
    sim.fill({ x: 10, y: 0, z: -40 }, { x: 10, y: 2, z: 40 }, 'bedrock');
    expect(await settle(clock, sim.goto({ kind: 'block', x: 14, y: 0, z: 0 }))).toMatchObject({
      state: 'rejected',
      code: 'no_path',
    });
    expect(statuses[0]).toBe('partial');
    expect(statuses.at(-1)).toBe('timeout');
    expect(sim.position().x).toBe(9.5);
  });

  it('accepts near and xz goals with their ranges', async () => {
    const { clock, sim } = world();
    expect(await settle(clock, sim.goto({ kind: 'near', x: 10, y: 0, z: 0, range: 3 }))).toEqual({ state: 'ok' });
    expect(sim.position().x).toBe(7.5);
    expect(await settle(clock, sim.goto({ kind: 'xz', x: 7, z: 6 }))).toEqual({ state: 'ok' });
    expect(sim.position()).toMatchObject({ x: 7.5, z: 6.5 });
  });

  it('moves one block per 232 ms (4.317 blocks/s) of virtual time', async () => {
    const { clock, sim } = world();
    const outcome = track(sim.goto({ kind: 'block', x: 10, y: 0, z: 0 }));
    await clock.advance(WALK_STEP_MS * 4);
    expect(sim.position().x).toBe(4.5);
    expect(outcome.outcome.state).toBe('pending');
    await clock.advance(WALK_STEP_MS * 6 - 1);
    expect(outcome.outcome.state).toBe('pending');
    await clock.advance(1);
    expect(outcome.outcome.state).toBe('ok');
  });

  it('replans when a block appears on the path while walking', async () => {
    const { clock, sim, statuses } = world();
    const outcome = track(sim.goto({ kind: 'block', x: 6, y: 0, z: 0 }));
    await clock.advance(300);
    sim.fill({ x: 3, y: 0, z: 0 }, { x: 3, y: 1, z: 0 }, 'stone');
    await clock.advance(10_000);
    expect(outcome.outcome.state).toBe('ok');
    expect(statuses.filter((s) => s === 'planned')).toHaveLength(2);
    expect(sim.position()).toEqual({ x: 6.5, y: 0, z: 0.5 });
  });

  it('resolves at once when the goal already holds', async () => {
    const { clock, sim, statuses } = world();
    expect(await settle(clock, sim.goto({ kind: 'near', x: 1, y: 0, z: 0, range: 2 }))).toEqual({ state: 'ok' });
    expect(statuses).toEqual(['planned', 'reached']);
  });
});
