import { describe, expect, it } from 'vitest';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { nightWork } from '../helpers/night-fight.js';

describe('a spider at night on a hurt bot at work: fought, never run from', () => {
  it('at 8 of 20 with a wooden sword and blocks (a pillar would fit), the bot fights the spider, kills it, and gets its log', async () => {
    const {
      h,
      hostiles: [spider],
      collect,
    } = await nightWork({
      pack: { wooden_sword: 1, dirt: 16 },
      held: 'wooden_sword',
      health: 8,
      logs: [[14, 0]],
      hostiles: [{ name: 'spider', x: 6, z: 0 }],
    });
    const result = await collect();
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
