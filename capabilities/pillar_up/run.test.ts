import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../src/runtime/index.js';
import { cancelAfter, harness, plan } from '../../test/helpers/executor.js';
import { match } from '../../test/helpers/matchers.js';

const pillar = (args: Record<string, unknown>) => ({ stepId: 'pillar', type: 'pillar_up', args });

describe('pillar_up runs end to end on SimWorld', () => {
  it('jumps and places a block underneath, height times, reporting the rise, verified', async () => {
    const progress: ProgressEvent[] = [];
    const h = await harness({ inventory: { dirt: 5 } }, { hooks: { progress: (event) => progress.push(event) } });
    const result = await h.run(plan(pillar({ height: 3 })));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true }, attempts: 1 }] });
    expect(h.world.position()).toMatchObject({ x: 0.5, y: 3, z: 0.5 });
    expect([0, 1, 2].map((y) => h.world.blockAt({ x: 0, y, z: 0 })?.name)).toEqual(['dirt', 'dirt', 'dirt']);
    expect(h.world.inventory()).toEqual({ dirt: 2 });
    expect(progress.map((event) => event.done)).toEqual([1, 2, 3]);
    expect(h.world.actuatorLog.map((entry) => entry.command)).toEqual([
      'equip',
      'move',
      'place',
      'move',
      'place',
      'move',
      'place',
    ]);
  });

  it('reports stuck.progress when jumps stop lifting the bot, then the re-checked guard ends the step', async () => {
    const h = await harness({ inventory: { cobblestone: 5 } });
    // A ceiling closes in over the bot once it stands on its first block.
    h.clock.setTimeout(() => h.world.setBlock({ x: 0, y: 3, z: 0 }, 'stone'), 600);
    const result = await h.run(plan(pillar({ height: 3 })));
    const retry = h.events.find((e) => e.type === 'step.retry');
    expect(retry).toMatchObject({
      code: 'stuck.progress',
      detail: match.stringMatching(/did not lift the bot .*risen 1 of 3/),
    });
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'guard_failed',
      detail: match.stringMatching(/leaves room to rise only 0 of 3/),
    });
    expect(h.world.position().y).toBe(1);
    expect(h.world.liveActuators()).toBe(0);
  });

  it('stops mid-jump when the run is cancelled, leaving no actuator behind', async () => {
    const h = await harness({ inventory: { dirt: 5 } });
    const { result, cancelledAt } = await cancelAfter(h, [pillar({ height: 3 })], 750);
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'aborted' });
    expect(h.world.actuatorLog.map((entry) => [entry.command, entry.outcome])).toEqual([
      ['equip', 'ok'],
      ['move', 'ok'],
      ['place', 'ok'],
      ['move', 'aborted'],
    ]);
    expect(h.world.actuatorLog.every((entry) => entry.startedAt <= cancelledAt)).toBe(true);
    expect(h.world.liveActuators()).toBe(0);
  });

  it('fails with precondition_missing without enough blocks to stand on', async () => {
    const h = await harness({ inventory: { dirt: 1 } });
    const result = await h.run(plan(pillar({ height: 3 })));
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'precondition_missing' });
    expect(h.world.actuatorLog).toEqual([]);
  });
});
