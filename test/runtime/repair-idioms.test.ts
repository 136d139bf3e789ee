import { describe, expect, test } from 'vitest';
import { WorldError } from '../../src/contracts/world.js';
import type { FailureCode } from '../../src/contracts/failure-codes.js';
import type { RunContext } from '../../src/registry/capability-spec.js';
import { FakeActuator, harness, unusedWorld } from './harness.js';

/** An action failing with the given codes in turn (then succeeding), stamping when each attempt starts. */
function scripted(actuator: FakeActuator, codes: FailureCode[], starts: number[]) {
  let attempt = 0;
  return async (ctx: RunContext) => {
    starts.push(ctx.clock.now());
    await actuator.command(ctx, 10);
    const code = codes[attempt++];
    if (code) throw new WorldError(code, `attempt ${attempt} failed`);
  };
}

describe('retry with exponential backoff and jitter', () => {
  const tree = 'root { retry [4] while(retryable) { sequence { action [backoff, 100, 300] action [attempt] } } }';

  async function attemptStarts(codes: FailureCode[], seed: number) {
    const starts: number[] = [];
    const h = harness({ t: tree }, (bindings, clock) =>
      bindings.registerAction('attempt', scripted(new FakeActuator(clock), codes, starts)),
    );
    const outcome = h.runner.run(
      't',
      { args: {}, world: unusedWorld },
      { seed, watchdogDefaults: { noActuatorMs: 10_000 } },
    );
    await h.clock.advance(5000);
    return { outcome: await outcome, starts };
  }

  test('waits base * 2^(n-1), capped at max, with ±20 % jitter never above max, then succeeds', async () => {
    const { outcome, starts } = await attemptStarts(['no_path', 'no_path', 'no_path'], 7);
    expect(outcome).toEqual({ ok: true });
    const gaps = starts.slice(1).map((start, i) => start - starts[i]! - 10);
    const caps = [100, 200, 300];
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(caps[i]! * 0.8);
      expect(gap).toBeLessThanOrEqual(Math.min(300, caps[i]! * 1.2));
    });
  });

  test('the jitter is deterministic for a seed', async () => {
    const first = await attemptStarts(['no_path', 'no_path'], 42);
    const again = await attemptStarts(['no_path', 'no_path'], 42);
    const other = await attemptStarts(['no_path', 'no_path'], 43);
    expect(again.starts).toEqual(first.starts);
    expect(other.starts).not.toEqual(first.starts);
  });

  test("is bounded: gives up after the retry's attempts with the last code", async () => {
    const { outcome, starts } = await attemptStarts(['no_path', 'no_path', 'no_path', 'no_path', 'no_path'], 1);
    expect(starts).toHaveLength(4);
    expect(outcome).toMatchObject({ ok: false, code: 'no_path' });
  });

  test('stops at once on a code the step does not retry', async () => {
    const { outcome, starts } = await attemptStarts(['no_path', 'schema_violation', 'no_path'], 1);
    expect(starts).toHaveLength(2);
    expect(outcome).toMatchObject({ ok: false, code: 'schema_violation' });
  });

  test("honours the capability's retryableCodes", async () => {
    const starts: number[] = [];
    const h = harness({ t: tree }, (bindings, clock) =>
      bindings.registerAction('attempt', scripted(new FakeActuator(clock), ['no_path', 'no_path'], starts)),
    );
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld }, { retryableCodes: ['stuck.path'] });
    await h.clock.advance(2000);
    expect(await outcome).toMatchObject({ ok: false, code: 'no_path' });
    expect(starts).toHaveLength(1);
  });
});

describe('fallback to an alternate method', () => {
  test('the second method runs only when the first fails', async () => {
    const used: string[] = [];
    const custom = harness({ t: 'root { selector { action [primary] action [alternate] } }' }, (bindings, clock) => {
      const actuator = new FakeActuator(clock);
      bindings.registerAction('primary', async (ctx) => {
        used.push('primary');
        await actuator.command(ctx, 10);
        throw new WorldError('no_path', 'blocked');
      });
      bindings.registerAction('alternate', async (ctx) => {
        used.push('alternate');
        await actuator.command(ctx, 10);
      });
    });
    const outcome = custom.runner.run('t', { args: {}, world: unusedWorld });
    await custom.clock.advance(50);
    expect(await outcome).toEqual({ ok: true });
    expect(used).toEqual(['primary', 'alternate']);
  });
});

describe('recovery node (task + recovery, N attempts)', () => {
  const tree = 'root { retry [3] { selector { action [task] fail { action [recover] } } } }';

  test('runs the recovery after each failure and the task again, succeeding once the task does', async () => {
    const log: string[] = [];
    const h = harness({ t: tree }, (bindings, clock) => {
      const actuator = new FakeActuator(clock);
      let tries = 0;
      bindings.registerAction('task', async (ctx) => {
        log.push('task');
        await actuator.command(ctx, 10);
        return ++tries >= 3;
      });
      bindings.registerAction('recover', async (ctx) => {
        log.push('recover');
        await actuator.command(ctx, 10);
      });
    });
    const outcome = h.runner.run('t', { args: {}, world: unusedWorld });
    await h.clock.advance(200);
    expect(await outcome).toEqual({ ok: true });
    expect(log).toEqual(['task', 'recover', 'task', 'recover', 'task']);
  });

  test('fails after N attempts', async () => {
    const log: string[] = [];
    const h = harness({ t: tree }, (bindings) => {
      bindings.registerAction('task', () => (log.push('task'), false));
      bindings.registerAction('recover', () => void log.push('recover'));
    });
    expect(await h.runner.run('t', { args: {}, world: unusedWorld })).toMatchObject({
      ok: false,
      code: 'runner_error',
    });
    expect(log).toEqual(['task', 'recover', 'task', 'recover', 'task', 'recover']);
  });
});

describe('round-robin of cheap recoveries', () => {
  test('tries one recovery per failure, in rotation, moving past a recovery that fails', async () => {
    const log: string[] = [];
    const h = harness(
      {
        t: 'root { retry [6] { selector { action [task] fail { action [round_robin, "jump", "back", "strafe"] } } } }',
      },
      (bindings) => {
        let tries = 0;
        bindings.registerAction('task', () => (log.push('task'), ++tries >= 5));
        bindings.registerAction('jump', () => void log.push('jump'));
        bindings.registerAction('back', () => (log.push('back'), false));
        bindings.registerAction('strafe', () => void log.push('strafe'));
      },
    );
    expect(await h.runner.run('t', { args: {}, world: unusedWorld })).toEqual({ ok: true });
    expect(log).toEqual(['task', 'jump', 'task', 'back', 'strafe', 'task', 'jump', 'task', 'back', 'strafe', 'task']);
  });
});
