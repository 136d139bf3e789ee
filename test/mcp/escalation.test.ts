import { describe, expect, it } from 'vitest';
import { mcpOnSim, onClock, structured, text } from './helpers.js';
import { planks, walk } from '../helpers/escalation-plans.js';

describe('--escalate-to-client', () => {
  it('holds a step that failed past local repair, answers the pending call with the failure, and goes on with replace_remaining', async () => {
    const { client, clock } = await mcpOnSim({ escalateMs: 600_000, world: { inventory: {} } });
    const held = await onClock(clock, client.callTool({ name: 'run_plan', arguments: { plan: planks('wood') } }));
    expect(held.isError).toBe(true);
    expect(structured(held)).toMatchObject({
      status: 'awaiting_plan',
      planId: 'wood',
      bot: 'ada',
      code: 'precondition_missing',
      retryable: true,
      stepId: 'planks',
      expects: [{ kind: 'inventory', item: 'oak_planks', atLeast: 4 }],
      next: ['replace_remaining', 'cancel_run'],
      endsInS: 600,
    });
    expect((structured(held).evidence as { type: string }[]).at(-1)?.type).toBe('step.ended');
    expect(text(held)).toContain('the plan waits for you: replace_remaining');
    // get_run says the same while it waits.
    const view = await onClock(clock, client.callTool({ name: 'get_run', arguments: { planId: 'wood' } }));
    expect(structured(view)).toMatchObject({ status: 'awaiting_plan', stepId: 'planks' });
    // A replacement reusing a step id already run is refused, and the plan still waits.
    const reused = await onClock(
      clock,
      client.callTool({ name: 'replace_remaining', arguments: { planId: 'wood', steps: [walk('planks', 3)] } }),
    );
    expect(reused.isError).toBe(true);
    expect(text(reused)).toContain('step ids already run in this plan: planks');
    const goesOn = await onClock(
      clock,
      client.callTool({ name: 'replace_remaining', arguments: { planId: 'wood', steps: [walk('instead', 3)] } }),
    );
    expect(goesOn.isError).toBeUndefined();
    expect(structured(goesOn)).toMatchObject({
      status: 'succeeded',
      planId: 'wood',
      steps: [{ stepId: 'instead', verified: ['the bot stands on (3, 0, 0)'] }],
    });
  });

  it('cancel_run ends a held plan at once; a hold nobody answers ends the plan at its own timeout, saying why', async () => {
    const { client, clock, ops } = await mcpOnSim({ escalateMs: 120_000, world: { inventory: {} } });
    await onClock(clock, client.callTool({ name: 'run_plan', arguments: { plan: planks('one') } }));
    const cancelled = await onClock(
      clock,
      client.callTool({ name: 'cancel_run', arguments: { planId: 'one' } }),
      5_000,
    );
    expect(structured(cancelled)).toMatchObject({ status: 'cancelled', ended: true });

    await onClock(clock, client.callTool({ name: 'run_plan', arguments: { plan: planks('two') } }));
    const held = clock.now();
    const view = await onClock(clock, ops.getRun('two', { waitMs: 3_600_000 }), 3_600_000);
    expect(view.status).toBe('failed');
    expect(view.failure).toMatchObject({ code: 'escalation_exhausted' });
    expect(view.failure!.detail).toContain('the client sent neither replace_remaining nor cancel_run within 120 s');
    // It waited its own 120 s, not the default planner's 30 s.
    expect(clock.now() - held).toBeGreaterThanOrEqual(120_000);
  });
});
