import { describe, expect, it } from 'vitest';
import { harness, plan } from '../helpers/executor.js';

/*
 * A step taken over by a defence after its effect was made but before it was checked: the night bench's death-free
 * runs that failed anyway, the bot putting on its helmet as a skeleton came into sight.
 */

const HELMET_SETTLES_MS = 3_000;

describe('a step preempted after its effect was made', () => {
  it('ends verified on the world as the defence left it, instead of running again into its own guard', async () => {
    const h = await harness({
      inventory: { leather_helmet: 1, stone_sword: 1 },
      heldItem: 'stone_sword',
      ground: { radius: 30 },
      timeOfDay: 18_000,
    });
    // The helmet goes on at once; the command settles a second later, while a zombie walks up: the takeover comes
    // between the effect and its check.
    const equip = h.world.equip.bind(h.world);
    h.world.equip = async (...args) => {
      await equip(...args);
      await new Promise<void>((done) => h.clock.setTimeout(done, HELMET_SETTLES_MS));
    };
    h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 8.5, y: 0, z: 0.5 }, ai: true });
    const result = await h.run(
      plan({ stepId: 'wear', type: 'equip', args: { item: 'leather_helmet', destination: 'head' } }),
    );
    const types = h.events.filter((e) => 'stepId' in e && e.stepId === 'wear').map((e) => e.type);
    expect(types).toContain('step.preempted');
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(result.steps.find((s) => s.step.stepId === 'wear')?.outcome).toEqual({ ok: true });
    expect(h.world.worn?.()).toContain('leather_helmet');
  });
});
