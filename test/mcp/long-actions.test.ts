import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { ProgressReporter } from '../../src/mcp/progress.js';
import { stepFields } from '../journal/helpers.js';
import { mcpOnSim, onClock, structured } from './helpers.js';

const walk = (x: number) => ({ target: { kind: 'block', x, y: 0, z: 0 } });
const walkPlan = (planId: string, x: number) => ({
  planId,
  intentId: 'i',
  steps: [{ stepId: 'walk', type: 'navigate', args: walk(x) }],
});

const started = (stepId: string): ExecutorEvent =>
  ({ type: 'step.started', at: 0, planId: 'p', stepId, verb: 'navigate' }) as ExecutorEvent;

describe('progress', () => {
  it('a burst of events goes out at most four a second, the latest one waiting for its slot, the last one sent on close', async () => {
    const clock = new ManualClock();
    const sent: { at: number; progress: number; message: string }[] = [];
    const reporter = new ProgressReporter((p) => Promise.resolve(void sent.push({ at: clock.now(), ...p })), clock);
    for (const id of ['a', 'b', 'c']) reporter.event(started(id));
    await clock.advance(100);
    reporter.event(started('d'));
    await clock.advance(400);
    reporter.event(started('e'));
    reporter.event(started('f'));
    await clock.advance(100);
    expect(sent.map((p) => p.message)).toEqual([
      'a (navigate) started',
      'd (navigate) started',
      'e (navigate) started',
    ]);
    // The call answers now: what waits goes first, inside its gap, and nothing after it.
    await reporter.close();
    reporter.event(started('g'));
    await clock.advance(1000);
    expect(sent).toEqual([
      { at: 0, progress: 1, message: 'a (navigate) started' },
      { at: 250, progress: 2, message: 'd (navigate) started' },
      { at: 500, progress: 3, message: 'e (navigate) started' },
      { at: 600, progress: 4, message: 'f (navigate) started' },
    ]);
  });

  it("a call's step events arrive as progress notifications, spaced at least 250 ms apart, ending with the step's end", async () => {
    const { client, clock } = await mcpOnSim();
    const seen: { at: number; progress: number; message?: string }[] = [];
    const result = await onClock(
      clock,
      client.callTool({ name: 'navigate', arguments: walk(12) }, undefined, {
        onprogress: (p) => seen.push({ at: clock.now(), progress: p.progress, message: p.message }),
      }),
    );
    expect(structured(result).status).toBe('succeeded');
    expect(seen.map((p) => p.message)).toEqual([
      expect.stringMatching(/^plan navigate-\w+ accepted: navigate$/),
      'navigate (navigate) started',
      'navigate (navigate) ended ok, effects verified',
    ]);
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3]);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.at - seen[i - 1]!.at).toBeGreaterThanOrEqual(250);
  });
});

describe('cancellation', () => {
  it("the client's abort cancels the run: its step ends aborted, no actuator is left running, and the journal says so", async () => {
    const { client, clock, worlds, journal, ops } = await mcpOnSim();
    const abort = new AbortController();
    const call = client.callTool({ name: 'run_plan', arguments: { plan: walkPlan('far', 200) } }, undefined, {
      signal: abort.signal,
    });
    const refused = call.catch((error: unknown) => error);
    await clock.advance(2_000);
    expect(worlds[0]!.liveActuators()).toBe(1);
    abort.abort('the user pressed stop');
    expect(String(await refused)).toContain('the user pressed stop');
    const view = await onClock(clock, ops.getRun('far', { waitMs: 10_000 }));
    expect(view).toMatchObject({ status: 'cancelled', steps: [{ stepId: 'walk', status: 'failed', code: 'aborted' }] });
    expect(worlds[0]!.liveActuators()).toBe(0);
    expect(await stepFields(journal, 'far', 'status', 'outcome_code')).toEqual([
      { status: 'failed', outcome_code: 'aborted' },
    ]);
    const events = (await journal.eventHistory('far', { after: 0, limit: 1_000 }))!.rows;
    const cancelled = events.find((e) => e.type === 'plan.cancelled');
    expect(JSON.stringify(cancelled?.event)).toContain('the user pressed stop');
  });

  it("a call past its block time answers with a running handle; the run goes on past the call's end and get_run shows it ok", async () => {
    const { client, clock, worlds } = await mcpOnSim({ blockMs: 2_000 });
    const handle = await onClock(clock, client.callTool({ name: 'navigate', arguments: walk(40) }));
    const { planId, status } = structured(handle);
    expect(status).toBe('running');
    expect(handle.isError).toBeUndefined();
    // The call has ended; the bot still walks.
    await clock.advance(1_000);
    expect(worlds[0]!.liveActuators()).toBe(1);
    let view = structured(await onClock(clock, client.callTool({ name: 'get_run', arguments: { planId } })));
    expect(view).toMatchObject({ status: 'running', planId, runStatus: 'running' });
    for (let i = 0; i < 60 && view.status === 'running'; i++)
      view = structured(
        await onClock(clock, client.callTool({ name: 'get_run', arguments: { planId, waitMs: 600_000 } })),
      );
    expect(view).toMatchObject({
      status: 'succeeded',
      planId,
      steps: [{ stepId: 'navigate', verified: ['the bot stands on (40, 0, 0)'] }],
    });
  });

  it("a run handed back as a handle is no longer its call's: the client going away does not cancel it", async () => {
    const { client, clock, ops } = await mcpOnSim({ blockMs: 1_000 });
    const handle = await onClock(clock, client.callTool({ name: 'run_plan', arguments: { plan: walkPlan('on', 30) } }));
    expect(structured(handle)).toMatchObject({ status: 'running', planId: 'on' });
    await client.close();
    const view = await onClock(clock, ops.getRun('on', { waitMs: 120_000 }));
    expect(view).toMatchObject({ status: 'succeeded', steps: [{ stepId: 'walk', status: 'succeeded' }] });
  });
});
