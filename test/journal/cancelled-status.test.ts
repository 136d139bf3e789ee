import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { systemClock } from '../../src/clock/index.js';
import type { Journal } from '../../src/journal/journal.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { listRuns } from '../../src/journal/queries.js';
import { createOperations, LocalBots, localBot } from '../../src/operations/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { contractBackends } from './backends.js';
import { cliProcess, finished } from './cli-process.js';

const registry = createDefaultRegistry();
const backends = contractBackends();
// Registered after the backends' own, so it runs before they close the journals (vitest runs them as a stack).
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

const walk = (planId: string, x: number) => ({
  planId,
  intentId: 'i',
  steps: [{ stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x, y: 0, z: 0 } } }],
});

/**
 * Operations over one journaled SimWorld bot, as `verbtree serve` has them. On the system clock: the journal's writes
 * are real I/O, which a manual clock would not wait for; the tests wait on events, never on time.
 */
async function operationsOver(journal: Journal) {
  const clock = systemClock;
  const assembly = await assembleJournaled({
    registry,
    world: SimWorld.create({ clock, inventory: {} }),
    clock,
    journal,
    kind: 'test',
  });
  closers.push(() => assembly.close());
  const ops = createOperations({ registry, journal, bots: new LocalBots([localBot('ada', assembly)]), clock });
  /** Starts a long walk (200 blocks) and returns once its step is under way, with the run's end to await. */
  const walking = async (planId: string) => {
    let started!: () => void;
    const underWay = new Promise<void>((resolve) => (started = resolve));
    const ended = ops.run(walk(planId, 200), { onEvent: (e) => e.type === 'step.started' && started() });
    await underWay;
    return { ended };
  };
  /** Runs a plan to its end and waits until the journal holds that end (its writes are queued). */
  const runToEnd = async (ended: Promise<unknown>) => {
    await ended;
    await assembly.recorder.flush();
  };
  return { ops, walking, runToEnd };
}

/** The CLI in a process of its own, over the journal `spec` names. */
async function cliOut(...args: string[]): Promise<string> {
  const run = await finished(cliProcess(args));
  expect(run.code, run.err).toBe(0);
  return run.out;
}

describe.each(backends)('a cancelled plan on the %s journal', (_backend, fresh) => {
  it('reads cancelled everywhere: its own process, another one, the journal, `runs` and `show`', async () => {
    const { spec, journal, another } = await fresh();
    const { ops, walking, runToEnd } = await operationsOver(journal);
    const { ended } = await walking('far');
    await ops.cancel('far', 'not wanted');
    await runToEnd(ended);
    const here = await ops.getRun('far');
    expect(here).toMatchObject({ status: 'cancelled', source: 'process', failure: { code: 'aborted' } });

    // Another process, on a connection of its own opened after the run ended: what it reads was journaled.
    const elsewhere = await another();
    expect(await elsewhere.plan('far')).toMatchObject({ status: 'cancelled' });
    const [run] = await listRuns(elsewhere, 5);
    expect(run).toMatchObject({ plan_id: 'far', ok: 0, code: 'aborted', plan_status: 'cancelled' });
    expect(run!.cancelled_at).not.toBeNull();
    const reader = createOperations({
      registry,
      journal: elsewhere,
      bots: new LocalBots([]),
      clock: systemClock,
    });
    expect(await reader.getRun('far')).toMatchObject({
      status: 'cancelled',
      source: 'journal',
      steps: [{ stepId: 'walk', status: 'failed', code: 'aborted' }],
      failure: { code: 'aborted', stepId: 'walk' },
    });

    expect(await cliOut('runs', '--journal', spec)).toMatch(/│ far\s+│ cancelled\s+│/);
    const shown = await cliOut('show', 'far', '--journal', spec);
    expect(shown).toContain('plan far: cancelled');
    expect(shown).toMatch(/runs #\d+ cancelled/);
  }, 60_000);

  it('keeps failed for a run that failed on its own, and a plan run again after its cancel reads as that run ended', async () => {
    const { journal } = await fresh();
    const { ops, walking, runToEnd } = await operationsOver(journal);
    const { ended: cancelled } = await walking('far');
    await ops.cancel('far');
    await runToEnd(cancelled);
    await runToEnd(ops.run(walk('far', 3)));
    expect(await journal.plan('far')).toMatchObject({ status: 'succeeded' });
    const planks = { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } };
    await runToEnd(ops.run({ planId: 'no-logs', intentId: 'i', steps: [planks] }));
    expect(await journal.plan('no-logs')).toMatchObject({ status: 'failed' });
    const runs = (await listRuns(journal, 5)).map((r) => [r.plan_id, r.ok, r.cancelled_at === null ? '' : 'cancelled']);
    expect(runs).toEqual([
      ['no-logs', 0, ''],
      ['far', 1, ''],
      ['far', 0, 'cancelled'],
    ]);
  }, 60_000);
});
