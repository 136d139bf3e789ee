import { describe, expect, it } from 'vitest';
import { mcpOnSim, onClock, structured, text } from './helpers.js';

const walkStep = (stepId: string, x: number) => ({
  stepId,
  type: 'navigate',
  args: { target: { kind: 'block', x, y: 0, z: 0 } },
});
const plan = (planId: string, ...steps: ReturnType<typeof walkStep>[]) => ({ planId, intentId: 'i', steps });

describe('the control tools', () => {
  it('start_plan answers at once; pause_run, resume_run and replace_remaining steer the run; cancel_run answers once it ended', async () => {
    const { client, clock, worlds } = await mcpOnSim();
    const call = (name: string, args: Record<string, unknown>) =>
      onClock(clock, client.callTool({ name, arguments: args }));
    const started = await call('start_plan', { plan: plan('trip', walkStep('a', 20), walkStep('b', 40)) });
    expect(structured(started)).toMatchObject({ status: 'started', planId: 'trip', bot: 'ada', steps: 2 });
    await clock.advance(1_000);
    expect(structured(await call('pause_run', { planId: 'trip', reason: 'look around' }))).toEqual({
      planId: 'trip',
      action: 'pause',
    });
    const again = await call('pause_run', { planId: 'trip' });
    expect(again.isError).toBe(true);
    expect(structured(again)).toMatchObject({
      error: 'conflict',
      message: 'plan "trip" is already paused or has ended',
    });
    expect(structured(await call('resume_run', { planId: 'trip' }))).toEqual({ planId: 'trip', action: 'resume' });
    const refused = await call('replace_remaining', {
      planId: 'trip',
      steps: [{ stepId: 'c', type: 'navigat', args: {} }],
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('steps[0].type: unknown verb "navigat"; did you mean "navigate"?');
    expect(structured(await call('replace_remaining', { planId: 'trip', steps: [walkStep('c', 3)] }))).toEqual({
      planId: 'trip',
      action: 'replace',
      steps: 1,
    });
    const cancelled = await call('cancel_run', { planId: 'trip', reason: 'enough' });
    expect(cancelled.isError).toBeUndefined();
    expect(structured(cancelled)).toMatchObject({
      planId: 'trip',
      action: 'cancel',
      status: 'cancelled',
      ended: true,
      steps: [{ stepId: 'a', status: 'failed', code: 'aborted' }, expect.anything()],
    });
    expect(worlds[0]!.liveActuators()).toBe(0);
    const gone = await call('cancel_run', { planId: 'trip' });
    expect(structured(gone)).toMatchObject({
      error: 'not_found',
      see: 'the resource verbtree://runs lists the journaled runs',
    });
  });

  it('validate_plan lists every issue and moves nothing; observe and list_bots show the world and the bots', async () => {
    const { client, clock, worlds } = await mcpOnSim({ world: { inventory: { oak_log: 2 } } });
    const call = (name: string, args: Record<string, unknown>) =>
      onClock(clock, client.callTool({ name, arguments: args }));
    const invalid = await call('validate_plan', {
      plan: { planId: 'v', intentId: 'i', steps: [{ stepId: 'a', type: 'craft_itme', args: {} }, walkStep('b', 1)] },
    });
    expect(invalid.isError).toBeUndefined();
    expect(structured(invalid)).toMatchObject({
      ok: false,
      issues: [{ where: 'steps[0].type', suggestion: 'craft_item' }],
    });
    const valid = await call('validate_plan', { plan: plan('v', walkStep('b', 1)) });
    expect(structured(valid)).toMatchObject({ ok: true, steps: [{ stepId: 'b', type: 'navigate', version: '1.0.0' }] });
    expect(worlds[0]!.position()).toMatchObject({ x: 0.5, z: 0.5 });
    const seen = await call('observe', { radius: 1 });
    expect(structured(seen)).toMatchObject({ bot: 'ada', inventory: { oak_log: 2 }, blocks: { radius: 1 } });
    expect(text(seen)).toContain('holds 2 oak_log');
    const bots = await call('list_bots', {});
    expect(structured(bots)).toMatchObject({ bots: [{ bot: 'ada', kind: 'sim', connected: true, state: 'IDLE' }] });
    const far = await call('observe', { radius: 9 });
    expect(structured(far)).toMatchObject({ error: 'invalid' });
    expect(text(far)).toContain('radius: is too large: must be <= 4');
  });
});
