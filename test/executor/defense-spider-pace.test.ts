import { describe, expect, it } from 'vitest';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { harness, plan } from '../helpers/executor.js';

describe('a spider at night on a hurt bot at work: fought, never run from', () => {
  it('at 8 of 20 with a wooden sword and blocks (a pillar would fit), the bot fights the spider, kills it, and gets its log', async () => {
    const h = await harness({
      ground: { radius: 60 },
      timeOfDay: 18_000,
      inventory: { wooden_sword: 1, dirt: 16 },
      heldItem: 'wooden_sword',
      health: 8,
    });
    h.world.fill({ x: 14, y: 0, z: 0 }, { x: 14, y: 0, z: 0 }, 'oak_log');
    const spider = h.world.spawnEntity({ name: 'spider', kind: 'hostile', position: { x: 6.5, y: 0, z: 0.5 } });
    const result = await h.run(
      plan({ stepId: 'log', type: 'collect_block', args: { block: 'oak_log', count: 1 } }),
      300_000,
    );
    const responses = h.events
      .filter((e): e is Extract<ExecutorEvent, { type: 'safety.emergency' }> => e.type === 'safety.emergency')
      .map((e) => [e.response, e.detail]);
    expect(responses.map(([response]) => response)).not.toContain('flee');
    expect(responses.map(([response]) => response)).not.toContain('pillar_up');
    expect(responses[0]?.[0], JSON.stringify(responses)).toBe('attack_entity');
    expect(h.world.entities().map((e) => e.id)).not.toContain(spider);
    expect(h.deaths).toEqual([]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => [s.step.stepId, s.outcome]))).toBe(true);
  });
});
