import { describe, expect, it } from 'vitest';
import { harness, plan } from '../helpers/executor.js';
import { match } from '../helpers/matchers.js';

const walk = (x: number, z: number) => ({
  stepId: `walk-${x}-${z}`,
  type: 'navigate',
  args: { target: { kind: 'near', x, y: 0, z, range: 1 } },
});

describe('executor step lifecycle', () => {
  it('runs a navigate step to a verified success, with TTFA measured from dispatch', async () => {
    const h = await harness();
    const result = await h.run(plan(walk(6, 0)));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true }, attempts: 1 }] });
    const types = h.events.map((e) => e.type);
    expect(types).toEqual([
      'plan.accepted',
      'agent.state',
      'step.started',
      'step.expects',
      'attempt.started',
      'step.firstAction',
      'step.ended',
      'agent.state',
      'plan.ended',
    ]);
    const target = { kind: 'near', x: 6, y: 0, z: 0, range: 1 };
    expect(h.events[0]).toMatchObject({
      type: 'plan.accepted',
      resolved: [{ stepId: 'walk-6-0', type: 'navigate', version: match.any(String), args: { target } }],
    });
    expect(h.events.find((e) => e.type === 'step.started')).toMatchObject({ args: { target } });
    expect(h.events.find((e) => e.type === 'attempt.started')).toMatchObject({
      stepId: 'walk-6-0',
      verb: 'navigate',
      attempt: 1,
    });
    expect(h.events.filter((e) => e.type === 'agent.state').map((e) => `${e.from}->${e.to}`)).toEqual([
      'IDLE->EXECUTING',
      'EXECUTING->COMPLETED',
    ]);
    expect(h.assembly.executor.state()).toBe('COMPLETED');
    const first = h.events.find((e) => e.type === 'step.firstAction');
    expect(first).toMatchObject({ command: 'goto' });
    expect(h.world.position().x).toBeGreaterThan(4);
  });

  it('rejects a plan with an unknown verb before any step moves (FM-01)', async () => {
    const h = await harness();
    const result = await h.run(plan(walk(3, 0), { stepId: 'chop', type: 'fell_tree', args: {} }));
    expect(result).toMatchObject({ ok: false, code: 'unknown_verb', steps: [] });
    expect(h.events.map((e) => e.type)).toEqual(['plan.rejected', 'plan.ended']);
    expect(h.world.actuatorLog).toEqual([]);
  });
});
