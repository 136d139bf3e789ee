import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { createOperations, LocalBots, localBot, type OperationErrorKind } from '../../src/operations/index.js';
import { SimWorld, type SimWorldOptions } from '../../src/world/sim/index.js';
import { openTemp, stepFields } from '../journal/helpers.js';
import { refusal } from '../helpers/operations.js';

const registry = createDefaultRegistry();
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

/** Operations over journaled SimWorld bots on a manual clock, one per name. */
async function setup(names: string[] = ['ada'], world: Partial<SimWorldOptions> = {}) {
  const clock = new ManualClock();
  const { journal } = openTemp();
  const worlds: SimWorld[] = [];
  const bots = [];
  for (const name of names) {
    const sim = SimWorld.create({ clock, ...world });
    const assembly = await assembleJournaled({ registry, world: sim, clock, journal, kind: 'test' });
    closers.push(() => assembly.close());
    worlds.push(sim);
    bots.push(localBot(name, assembly));
  }
  const ops = createOperations({ registry, journal, bots: new LocalBots(bots), clock });
  return { clock, journal, worlds, ops };
}

const walk = (planId: string, x: number) => ({
  planId,
  intentId: 'i',
  steps: [{ stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x, y: 0, z: 0 } } }],
});

/** Settles `promise` while the manual clock runs, at most `maxMs` of virtual time. */
async function onClock<T>(clock: ManualClock, promise: Promise<T>, maxMs = 60_000): Promise<T> {
  let settled: { value: T } | undefined;
  void promise.then((value) => (settled = { value }));
  await clock.runUntil(() => settled !== undefined, maxMs);
  if (!settled) throw new Error(`not settled within ${maxMs} ms of virtual time`);
  return settled.value;
}

describe('operations refuse with one error type, its kind, a message naming the field, and details', () => {
  it('not_found: an unknown bot lists the bots; an unknown plan names where the plans are listed', async () => {
    const { ops } = await setup(['ada', 'bo']);
    const bot = await refusal(() => ops.botStatus({ bot: 'cy' }));
    expect(bot).toMatchObject({
      kind: 'not_found',
      message: 'no bot "cy" here; the bots are ada, bo',
      details: { field: 'bot', bots: ['ada', 'bo'], see: 'listBots' },
    });
    for (const call of [
      () => ops.getRun('ghost'),
      () => ops.provenance('ghost'),
      () => ops.planEvents('ghost'),
      () => ops.pause('ghost'),
      () => ops.follow('ghost', () => undefined),
    ]) {
      const error = await refusal(call);
      expect(error.kind).toBe('not_found');
      expect(error.message).toContain('"ghost"');
      expect(error.details).toMatchObject({ field: 'planId', see: 'listRuns' });
    }
  });

  it('invalid: an argument out of range names the field and what it takes', async () => {
    const { ops } = await setup();
    const cases: [() => Promise<unknown>, string][] = [
      [() => ops.incidents({ limit: 0 }), 'limit must be a whole number from 1 to 1000, got 0'],
      [() => ops.provenance('p', { offset: -1 }), 'offset must be a whole number from 0, got -1'],
      [() => ops.getRun('p', { waitMs: 1.5 }), 'waitMs must be a whole number from 0 to 3600000, got 1.5'],
      [() => ops.observe({ radius: 9 }), 'radius must be a whole number from 0 to 4, got 9'],
    ];
    for (const [call, message] of cases) {
      const error = await refusal(call);
      expect(error.kind).toBe('invalid');
      expect(error.message).toBe(message);
      expect(error.details.field).toBe(message.split(' ')[0]);
    }
  });

  it('rejected: a plan that does not validate starts nothing and lists every issue; so does an intent', async () => {
    const { ops, journal } = await setup();
    const error = await refusal(() =>
      ops.start({
        planId: 'bad',
        intentId: 'i',
        steps: [
          { stepId: 'a', type: 'navigat', args: {} },
          { stepId: 'b', type: 'craft_item', args: { item: 'oak_planks', count: -1 } },
        ],
      }),
    );
    expect(error.kind).toBe('rejected');
    expect(error.details.issues).toMatchObject([
      { code: 'unknown_verb', where: 'steps[0].type' },
      { code: 'schema_violation', where: 'steps[1].args.count' },
    ]);
    expect(error.message).toContain('steps[0].type: ');
    expect(await journal.listRuns()).toEqual([]);
    const intent = await refusal(() =>
      ops.start({ id: 'i', source: 'user', goal: 'wood', urgency: 0.5, safety: { allowed: true } }),
    );
    expect(intent.kind).toBe('rejected');
    expect(intent.message).toContain('no planner');
  });

  it('conflict: a second start of a running plan, and a pause of a paused one', async () => {
    const { ops, clock } = await setup();
    await ops.start(walk('far', 60));
    await clock.advance(500);
    const again = await refusal(() => ops.start(walk('far', 60)));
    expect(again.kind).toBe('conflict');
    expect(again.message).toContain('plan "far"');
    expect(await ops.pause('far', 'look')).toEqual({ planId: 'far', action: 'pause' });
    expect(await refusal(() => ops.pause('far'))).toMatchObject({
      kind: 'conflict',
      message: 'plan "far" is already paused or has ended',
    });
    await ops.cancel('far');
    await onClock(clock, ops.getRun('far', { waitMs: 10_000 }));
  });

  it('unavailable: with no bot attached, nothing runs or observes; botStatus says so without refusing', async () => {
    const { journal } = openTemp();
    const ops = createOperations({ registry, journal, bots: new LocalBots([]), clock: new ManualClock() });
    const kinds: OperationErrorKind[] = [];
    for (const call of [() => ops.start(walk('p', 1)), () => ops.run(walk('p', 1)), () => ops.observe()])
      kinds.push((await refusal(call)).kind);
    expect(kinds).toEqual(['unavailable', 'unavailable', 'unavailable']);
    expect(await ops.botStatus()).toEqual({ attached: false });
    expect(await ops.listBots()).toEqual([]);
  });
});

describe('validate', () => {
  it('reports every issue with path, code and fix, and moves nothing', async () => {
    const { ops, worlds, journal } = await setup();
    const answer = await ops.validate({
      planId: 'v',
      intentId: 'i',
      steps: [
        { stepId: 'a', type: 'craft_itme', args: { item: 'oak_planks', count: 4 } },
        { stepId: 'b', type: 'navigate', args: { target: { kind: 'block', x: 1, y: 0 } } },
      ],
    });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.issues.map((i) => [i.where, i.code])).toEqual([
      ['steps[0].type', 'unknown_verb'],
      ['steps[1].args.target.z', 'schema_violation'],
    ]);
    expect(answer.issues[0]!.path).toEqual(['steps', 0, 'type']);
    expect(answer.issues[0]!.suggestion).toBe('craft_item');
    const good = await ops.validate(walk('ok', 3));
    expect(good).toMatchObject({
      ok: true,
      planId: 'ok',
      steps: [{ stepId: 'walk', type: 'navigate', version: '1.0.0' }],
    });
    expect(worlds[0]!.position()).toMatchObject({ x: 0.5, y: 0, z: 0.5 });
    expect(await journal.listRuns()).toEqual([]);
  });
});

describe('observe', () => {
  it("reports the bot's body, pack, the time, the blocks and entities around it, as the world holds them", async () => {
    const { ops, worlds } = await setup(['ada'], {
      inventory: { oak_log: 3 },
      health: 17,
      food: 12,
      timeOfDay: 6000,
      blocks: [{ position: { x: 1, y: 0, z: 0 }, name: 'oak_log' }],
      entities: [
        { name: 'zombie', kind: 'hostile', position: { x: 5.5, y: 0, z: 0.5 } },
        { name: 'cow', kind: 'passive', position: { x: 40.5, y: 0, z: 0.5 } },
        { name: 'item', kind: 'item', position: { x: 2.5, y: 0, z: 0.5 }, item: { name: 'apple', count: 2 } },
      ],
    });
    const view = await ops.observe({ radius: 1 });
    expect(view).toMatchObject({
      bot: 'ada',
      position: { x: 0.5, y: 0, z: 0.5 },
      health: 17,
      food: 12,
      inventory: { oak_log: 3 },
      heldItem: null,
      timeOfDay: 6000,
      entityRadius: 16,
      blocks: { radius: 1, byName: { oak_log: [{ x: 1, y: 0, z: 0 }] } },
    });
    // The cells under the 3×3×3 cube's lowest layer are the ground's surface, nine of them.
    expect(view.blocks.byName.grass_block).toHaveLength(9);
    expect(view.blocks.byName.air).toBeUndefined();
    // The zombie is within 16 blocks, the cow is not.
    expect(view.entities).toEqual([{ id: 1, name: 'zombie', position: { x: 5.5, y: 0, z: 0.5 }, health: 20 }]);
    expect(view.drops).toEqual([{ name: 'apple', count: 2, position: { x: 2.5, y: 0, z: 0.5 } }]);
    // The truth, not a copy: a change in the world shows in the next observation.
    worlds[0]!.setBlock({ x: 1, y: 0, z: 0 }, 'air');
    expect((await ops.observe({ radius: 1 })).blocks.byName.oak_log).toBeUndefined();
  });
});

describe('run, start and getRun', () => {
  it('run with an abort signal cancels the run: the step ends aborted, no actuator is left, and the journal says so', async () => {
    const { ops, clock, worlds, journal } = await setup();
    const events: ExecutorEvent[] = [];
    const controller = new AbortController();
    const outcome = ops.run(walk('far', 200), { signal: controller.signal, onEvent: (e) => events.push(e) });
    await clock.advance(2_000);
    expect(worlds[0]!.liveActuators()).toBe(1);
    controller.abort('the client cancelled');
    const ended = await onClock(clock, outcome, 10_000);
    expect(ended).toMatchObject({ status: 'ended', planId: 'far', bot: 'ada', result: { ok: false, code: 'aborted' } });
    if (ended.status !== 'ended' || !ended.result) return;
    expect(ended.result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'aborted' });
    expect(worlds[0]!.liveActuators()).toBe(0);
    expect(events.find((e) => e.type === 'plan.cancelled')).toMatchObject({
      reason: 'cancelled by its caller: the client cancelled',
    });
    expect(events.at(-1)?.type).toBe('plan.ended');
    expect(await stepFields(journal, 'far', 'status', 'outcome_code')).toEqual([
      { status: 'failed', outcome_code: 'aborted' },
    ]);
    const view = await ops.getRun('far');
    expect(view).toMatchObject({
      status: 'cancelled',
      source: 'process',
      steps: [{ stepId: 'walk', status: 'failed', code: 'aborted' }],
      failure: { code: 'aborted', retryable: false, stepId: 'walk' },
    });
  });

  it("run's wait limit returns a running handle; getRun waits for the end and shows it ok, step by step", async () => {
    const { ops, clock } = await setup();
    const handle = await onClock(clock, ops.run(walk('near', 8), { waitMs: 200 }));
    expect(handle).toEqual({ status: 'running', planId: 'near', bot: 'ada' });
    expect(await ops.getRun('near')).toMatchObject({
      status: 'running',
      steps: [{ stepId: 'walk', verb: 'navigate', status: 'running' }],
      failure: null,
      result: null,
    });
    const view = await onClock(clock, ops.getRun('near', { waitMs: 60_000 }));
    expect(view).toMatchObject({
      planId: 'near',
      bot: 'ada',
      source: 'process',
      status: 'succeeded',
      steps: [{ stepId: 'walk', status: 'succeeded' }],
      stepsTotal: 1,
      failure: null,
      result: { ok: true },
    });
  });

  it('a failed run names the code, the step, what was expected, and its evidence', async () => {
    const { ops, clock } = await setup(['ada'], { inventory: {} });
    const plan = {
      planId: 'nothing',
      intentId: 'i',
      steps: [{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }],
    };
    const started = await ops.start(plan);
    expect(started).toEqual({ planId: 'nothing', bot: 'ada', steps: 1 });
    const view = await onClock(clock, ops.getRun('nothing', { waitMs: 60_000 }));
    expect(view.status).toBe('failed');
    expect(view.failure).toMatchObject({
      code: 'precondition_missing',
      retryable: true,
      stepId: 'planks',
      expects: [{ kind: 'inventory', item: 'oak_planks', atLeast: 4 }],
    });
    expect(view.failure!.detail).toContain('missing 1 oak_log');
    expect(view.failure!.evidence.map((e) => e.type)).toEqual([
      'step.started',
      'step.expects',
      'step.resumed',
      'step.ended',
    ]);
  });

  it('getRun reads a plan this process did not run from the journal', async () => {
    const first = await setup();
    await onClock(first.clock, first.ops.run(walk('old', 3)));
    // Another process over the same journal.
    const other = createOperations({ registry, journal: first.journal, bots: new LocalBots([]), clock: first.clock });
    expect(await other.getRun('old')).toMatchObject({
      planId: 'old',
      bot: null,
      source: 'journal',
      status: 'succeeded',
      steps: [{ stepId: 'walk', verb: 'navigate', status: 'succeeded' }],
      failure: null,
    });
  });

  it('follow delivers each event of a run until its end; replaceRemaining validates and refuses as it should', async () => {
    const { ops, clock } = await setup();
    await ops.start(walk('long', 30));
    const seen: string[] = [];
    const stop = ops.follow('long', (e) => seen.push(e.type));
    await clock.advance(500);
    expect((await refusal(() => ops.replaceRemaining('long', 'home'))).kind).toBe('invalid');
    const refused = await refusal(() => ops.replaceRemaining('long', [{ stepId: 'x', type: 'teleport', args: {} }]));
    expect(refused).toMatchObject({ kind: 'rejected', details: { issues: [{ code: 'unknown_verb' }] } });
    expect(await ops.replaceRemaining('long', [])).toEqual({ planId: 'long', action: 'replace', steps: 0 });
    await onClock(clock, ops.getRun('long', { waitMs: 60_000 }));
    expect(seen.at(-1)).toBe('plan.ended');
    expect(seen).toContain('step.ended');
    stop();
    // Ended: nothing is left to steer.
    expect((await refusal(() => ops.resume('long'))).kind).toBe('not_found');
  });
});
