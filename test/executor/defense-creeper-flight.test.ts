import { describe, expect, it } from 'vitest';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { nightWork } from '../helpers/night-fight.js';

/**
 * A bot at work among four logs around it at night, a creeper 4 blocks off walking up; what it holds is the case's,
 * and `wall` puts a stone wall 1.5 blocks behind the creeper, which stops its knock-back short of its defuse range.
 */
async function creeperAtWork(held: string | null, wall = false) {
  const {
    h,
    hostiles: [creeper],
    collect,
  } = await nightWork({
    pack: held ? { [held]: 1 } : {},
    held,
    logs: [
      [-3, 0],
      [-3, 8],
      [3, -8],
      [8, 3],
    ],
    hostiles: [{ name: 'creeper', x: 4, z: 0 }],
  });
  if (wall) h.world.fill({ x: 6, y: 0, z: -6 }, { x: 6, y: 2, z: 6 }, 'stone');
  const result = await collect();
  const emergencies = h.events.filter(
    (e): e is Extract<ExecutorEvent, { type: 'safety.emergency' }> => e.type === 'safety.emergency',
  );
  return { h, result, creeper, responses: emergencies.map((e) => e.response) };
}

/**
 * A bot with its back to a stone wall (no step back, nor to either side along it: a hillside's), a creeper 4 blocks
 * off in front walking up, a log beyond it: the creeper lights its fuse 3 blocks off, where the swing (2.76 across)
 * does not reach it.
 */
async function creeperAtTheWall(held: string) {
  const {
    h,
    hostiles: [creeper],
    collect,
  } = await nightWork({
    pack: { [held]: 1 },
    held,
    logs: [[9, 0]],
    hostiles: [{ name: 'creeper', x: 4, z: 0, ai: true }],
  });
  h.world.fill({ x: -1, y: 0, z: -6 }, { x: -1, y: 2, z: 6 }, 'stone');
  const result = await collect();
  return { h, result, creeper };
}

describe('a creeper at work: struck and backed off from, not fled again and again', () => {
  // Before, it backed off into the wall and took the blast: 20 to 6.9 (a blast from 2.9 blocks).
  it('with its back to a wall the bot steps in on the creeper that lit just out of its reach and strikes it: never blasted, and its step ends verified', async () => {
    const { h, result, creeper } = await creeperAtTheWall('wooden_sword');
    const story = JSON.stringify(
      h.events
        .filter((e) => e.type === 'step.ended' || e.type === 'safety.emergency')
        .map((e) => [e.type, 'outcome' in e ? e.outcome : e.detail]),
    );
    expect(h.deaths, story).toEqual([]);
    expect(
      h.world.entities().map((e) => e.id),
      story,
    ).not.toContain(creeper);
    expect(result.ok, story).toBe(true);
  });

  it('with a wooden sword the bot strikes it sprinting as it comes (each hit puts its fuse out) and kills it, unhurt', async () => {
    const { h, result, creeper, responses } = await creeperAtWork('wooden_sword');
    expect(responses).toEqual(['attack_entity']);
    expect(h.world.entities().map((e) => e.id)).not.toContain(creeper);
    // Unhurt, and never blown up (a dead bot respawns at 20).
    expect(h.deaths).toEqual([]);
    expect(h.world.health()).toBe(20);
    expect(result.ok, JSON.stringify(result.steps.map((s) => [s.step.stepId, s.outcome]))).toBe(true);
  });

  it('with a wall behind the creeper (its knock-back stopped short of 7 blocks) the bot is never blasted: it backs off, and its step ends verified', async () => {
    const { h, result, responses } = await creeperAtWork('wooden_sword', true);
    expect(responses[0], JSON.stringify(responses)).toBe('attack_entity');
    expect(h.deaths, JSON.stringify(responses)).toEqual([]);
    expect(h.world.health(), JSON.stringify(responses)).toBe(20);
    expect(result.ok, JSON.stringify(result.steps.map((s) => [s.step.stepId, s.outcome]))).toBe(true);
  });
});
