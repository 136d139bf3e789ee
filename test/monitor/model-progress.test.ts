import { describe, expect, it } from 'vitest';
import { apply, emptyModel } from '../../src/monitor/app/model.js';

/* The monitor's fold of step.progress, in Node: the step row shows where the step stands, the log stays quiet. */

const progress = (done: number, extra: Record<string, unknown> = {}) => ({
  type: 'step.progress',
  at: done * 250,
  planId: 'p',
  stepId: 'gather',
  verb: 'collect_block',
  done,
  total: 4,
  unit: 'oak_log',
  ...extra,
});

describe('monitor model: step.progress', () => {
  it("shows the step's latest report on its row, its own detail when it gave one, without filling the log", () => {
    const model = emptyModel('ada');
    apply(model, { type: 'plan.accepted', at: 0, planId: 'p' });
    apply(model, { type: 'step.started', at: 0, planId: 'p', stepId: 'gather', verb: 'collect_block' });
    const logged = model.log.length;
    apply(model, progress(1));
    apply(model, progress(3));
    expect(model.steps[0]!.progress).toBe('3/4 oak_log');
    apply(model, progress(3, { detail: '2 blocks left' }));
    expect(model.steps[0]!.progress).toBe('2 blocks left');
    expect(model.log).toHaveLength(logged);
  });
});
