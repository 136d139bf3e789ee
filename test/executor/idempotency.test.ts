import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/executor/events.js';
import { harness, plan } from '../helpers/executor.js';

const walk = (stepId: string, x: number, idempotencyKey?: string) => ({
  stepId,
  type: 'navigate',
  args: { target: { kind: 'near', x, y: 0, z: 0, range: 1 } },
  ...(idempotencyKey ? { idempotencyKey } : {}),
});

describe('idempotency (FM-05)', () => {
  it('does not dispatch a step whose key already completed, and says so', async () => {
    const h = await harness();
    const result = await h.run(plan(walk('first', 4, 'walk-east'), walk('again', 8, 'walk-east')));
    expect(result.ok).toBe(true);
    const refused = h.events.filter((e): e is EventOf<'step.refused'> => e.type === 'step.refused');
    expect(refused).toEqual([
      expect.objectContaining({
        stepId: 'again',
        code: 'duplicate_dispatch',
        state: 'completed',
        idempotencyKey: 'walk-east',
      }),
    ]);
    expect(result.steps[1]!.outcome).toEqual({ ok: true, deduplicated: true });
    expect(h.world.actuatorLog.filter((entry) => entry.command === 'goto')).toHaveLength(1);
    expect(Math.round(h.world.position().x)).toBeLessThan(6);
  });

  it('remembers completed keys across runs of the same stream', async () => {
    const h = await harness();
    await h.run(plan(walk('first', 4, 'k1')));
    const second = await h.run({ ...plan(walk('replayed', 4, 'k1')), planId: 'replay' });
    expect(second.steps[0]!.outcome).toEqual({ ok: true, deduplicated: true });
  });

  it('releases the key of a failed step so a repaired dispatch may run it', async () => {
    const h = await harness({ ground: { radius: 5 } });
    const failed = await h.run(plan(walk('far', 40, 'k2')));
    expect(failed.ok).toBe(false);
    const retried = await h.run({ ...plan(walk('near', 3, 'k2')), planId: 'retry' });
    expect(retried.steps[0]!.outcome).toEqual({ ok: true });
  });
});
