import { describe, expect, it } from 'vitest';
import { injectFaults } from '../../src/executor/fault-injection.js';
import type { EventOf } from '../../src/executor/events.js';
import { parseFaultSpecs } from '../../src/world/faults/index.js';
import { harness, plan } from '../helpers/executor.js';
import { match } from '../helpers/matchers.js';

const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 8, y: 0, z: 0, range: 1 } } };

function withFault(spec: string) {
  return harness({}, (clock) => ({
    wrapInvoker: (invoker) => injectFaults(invoker, parseFaultSpecs([spec]), { clock }),
  }));
}

const ended = (h: Awaited<ReturnType<typeof harness>>) =>
  h.events.filter((e): e is EventOf<'step.ended'> => e.type === 'step.ended');

describe('executor under injected faults', () => {
  it("ends a hanging navigate (FM-03, a branch that hangs) explicitly within 15 s: no plain retry of a stalled body, one unstuck move, then the world's word", async () => {
    const h = await withFault('navigate=hang');
    const result = await h.run(plan(walk));
    expect(result.ok).toBe(false);
    const [end] = ended(h);
    expect(end!.outcome).toMatchObject({
      ok: false,
      code: 'stuck.position',
      detail: match.stringMatching(
        /the same failure with no progress after unstuck: back_up: local recovery cannot change this/,
      ),
    });
    expect(h.events.filter((e) => e.type === 'step.retry')).toHaveLength(0);
    const repairs = h.events.filter((e): e is EventOf<'step.repair'> => e.type === 'step.repair');
    expect(repairs.map((r) => r.strategy)).toEqual(['unstuck: back_up']);
    const dispatched = h.events.find((e) => e.type === 'step.started')!;
    expect(end!.at - dispatched.at).toBeLessThanOrEqual(15_000);
    // Each supervised attempt is announced once, numbered from 1, and step.ended counts the same attempts.
    const attempts = h.events.filter(
      (e): e is EventOf<'attempt.started'> => e.type === 'attempt.started' && e.stepId === end!.stepId,
    );
    expect(attempts.map((a) => a.attempt)).toEqual(Array.from({ length: end!.attempts }, (_, i) => i + 1));
    const started = h.events.find((e) => e.type === 'step.started') as EventOf<'step.started'>;
    expect(end!.at).toBeLessThanOrEqual(started.deadlineAt + 50);
    expect(h.world.liveActuators()).toBe(0);
  });

  it('fails a runner that never acts (FM-03) with ttfa_exceeded at the 2 s limit, not before', async () => {
    const h = await withFault('navigate=never_actuates');
    await h.run(plan(walk));
    const retry = h.events.find((e) => e.type === 'step.retry') as EventOf<'step.retry'>;
    const started = h.events.find((e) => e.type === 'step.started')!;
    expect(retry).toMatchObject({ code: 'ttfa_exceeded' });
    expect(retry.at - started.at).toBe(2000);
    expect(ended(h)[0]!.outcome).toMatchObject({ ok: false, code: 'ttfa_exceeded' });
  });

  it('reports effects_unmet when the world claims success but nothing changed', async () => {
    const h = await withFault('goto=wrong_effects');
    await h.run(plan(walk));
    expect(ended(h)[0]!.outcome).toMatchObject({
      ok: false,
      code: 'effects_unmet',
      unmet: [expect.stringMatching(/^the bot stands within 1 of \(8, 0, 0\): it stands on .*, 7\.0 blocks short/)],
    });
  });

  it('ends a runner that ignores its abort signal explicitly too', async () => {
    const h = await withFault('navigate=hang_ignoring_abort');
    const result = await h.run(plan(walk));
    expect(result.ok).toBe(false);
    expect(ended(h)).toHaveLength(1);
  });
});
