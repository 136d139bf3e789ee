import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventOf, PlanResult } from '../../src/executor/events.js';
import type { FailureContext } from '../../src/executor/planner.js';
import { harness, plan, type Harness } from '../helpers/executor.js';

/*
 * Issue 30: in the tech-tree bench on the server (world 10) a spider killed the bot during a flight, mineflayer
 * respawned it at the spawn, and the flight then ended ok (no zombie within 9 of the spawn), the step it had taken
 * over resumed and the plan went on. A step whose run spans a death never ends ok: it ends `died`, and so does its plan.
 */

interface Scenario {
  verb: 'navigate' | 'attack_entity';
  health: number;
  combat: 'auto' | 'avoid';
  mobs: { name: 'zombie' | 'spider'; dx: number; dz: number }[];
  /** The lethal blow: so long into the run, or so long into the first step run inside another (a takeover, a sub-goal). */
  kill: { on: 'run' | 'nested'; afterMs: number };
}

const STEPS = {
  navigate: { stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 24, y: 0, z: 0, range: 1 } } },
  attack_entity: { stepId: 'fight', type: 'attack_entity', args: { target: { name: 'zombie' } } },
};

const mob = fc.record({
  name: fc.constantFrom('zombie' as const, 'spider' as const),
  dx: fc.integer({ min: -8, max: 8 }).filter((d) => Math.abs(d) >= 2),
  dz: fc.integer({ min: -8, max: 8 }),
});

const scenario: fc.Arbitrary<Scenario> = fc.record({
  verb: fc.constantFrom('navigate' as const, 'attack_entity' as const),
  health: fc.integer({ min: 1, max: 20 }),
  combat: fc.constantFrom('auto' as const, 'avoid' as const),
  // The first is a zombie, so a fight has its target.
  mobs: fc
    .tuple(mob, fc.array(mob, { maxLength: 2 }))
    .map(([first, rest]) => [{ ...first, name: 'zombie' as const }, ...rest]),
  kill: fc.record({
    on: fc.constantFrom('run' as const, 'nested' as const),
    afterMs: fc.integer({ min: 0, max: 4000 }),
  }),
});

/** When the bot first fell to 0 health: how many executor events and actuator commands came before. */
interface Fall {
  events: number;
  commands: number;
}

async function runToDeath(s: Scenario): Promise<{ h: Harness; result: PlanResult; fall: Fall | null }> {
  const h = await harness(
    { ground: { radius: 40 }, timeOfDay: 18_000, health: s.health, inventory: { wooden_sword: 1 } },
    { policy: { safety: { combat: s.combat } } },
  );
  for (const { name, dx, dz } of s.mobs)
    h.world.spawnEntity({ name, kind: 'hostile', position: { x: dx + 0.5, y: 0, z: dz + 0.5 }, ai: true });
  let fall: Fall | null = null;
  // A death after the plan has ended (the clock runs on a few ticks past its end) spans no step: it is not this case.
  h.world.events.on('hurt', (health) => {
    const planEnded = h.events.some((e) => e.type === 'plan.ended');
    if (health === 0 && !planEnded) fall ??= { events: h.events.length, commands: h.world.actuatorLog.length };
  });
  const blow = () => {
    if (h.world.health() > 0) h.world.setHealth(0, 'spider');
  };
  if (s.kill.on === 'run') h.clock.setTimeout(blow, s.kill.afterMs);
  let armed = false;
  h.assembly.executor.events.on('event', (event) => {
    if (s.kill.on !== 'nested' || armed || event.type !== 'step.started' || event.parentStepId === undefined) return;
    armed = true;
    h.clock.setTimeout(blow, s.kill.afterMs);
  });
  const result = await h.run(plan(STEPS[s.verb]), 600_000);
  return { h, result, fall };
}

/**
 * Each step's run, as the places of its `step.started` and `step.ended` among the executor's events (a step refused
 * before it started has none: its run is its end). Order, not time: a step may end in the very millisecond of a death.
 */
function stepRuns(h: Harness) {
  const started = new Map<string, number>();
  const runs: { stepId: string; from: number; to: number; outcome: EventOf<'step.ended'>['outcome'] }[] = [];
  h.events.forEach((e, i) => {
    if (e.type === 'step.started') started.set(e.stepId, i);
    if (e.type === 'step.ended')
      runs.push({ stepId: e.stepId, from: started.get(e.stepId) ?? i, to: i, outcome: e.outcome });
  });
  return runs;
}

describe('a death mid-step (issue 30)', () => {
  it('over generated fights and flights on SimWorld: every step whose run spans the death ends `died`, never ok; the plan ends `died`; the dead bot issues no further command', async () => {
    let deaths = 0;
    let inNested = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { h, result, fall } = await runToDeath(s);
        if (fall === null) return;
        deaths++;
        const runs = stepRuns(h);
        const spanning = runs.filter((run) => run.from < fall.events && fall.events <= run.to);
        const summary = JSON.stringify({ s, fall, result: [result.ok, result.code, result.detail], runs });
        if (spanning.length > 1) inNested++;
        expect(spanning.length, summary).toBeGreaterThan(0);
        for (const run of spanning) expect(run.outcome, summary).toMatchObject({ ok: false, code: 'died' });
        expect([result.ok, result.code], summary).toEqual([false, 'died']);
        expect(h.world.actuatorLog.slice(fall.commands), summary).toEqual([]);
        const incidents = h.events.filter((e) => e.type === 'incident' && e.kind === 'death');
        expect(incidents, summary).toHaveLength(1);
      }),
      { numRuns: 60 },
    );
    // The generator reaches both kinds of death: in a plan's own step, and in a step run inside it (a flight).
    expect(deaths).toBeGreaterThan(20);
    expect(inNested).toBeGreaterThan(0);
  }, 120_000);

  it('killed during a flight: the flight and the walk it took over both end `died`, with the evidence, and nothing runs after', async () => {
    const { h, result, fall } = await runToDeath({
      verb: 'navigate',
      health: 5,
      combat: 'avoid',
      mobs: [{ name: 'zombie', dx: 3, dz: 0 }],
      kill: { on: 'nested', afterMs: 600 },
    });
    expect(fall).not.toBeNull();
    const ended = stepRuns(h).map((run) => [run.stepId, run.outcome.ok, !run.outcome.ok && run.outcome.code]);
    expect(ended.map(([, ok, code]) => [ok, code])).toEqual(ended.map(() => [false, 'died']));
    expect(h.events.some((e) => e.type === 'step.started' && e.verb === 'flee')).toBe(true);
    expect(result).toMatchObject({ ok: false, code: 'died' });
    expect(result.detail).toMatch(
      /^the bot died during walk \(navigate\) at -?\d+,0,-?\d+, killed by spider from health \d+/,
    );
  });

  it('with a planner, the death goes to it with its evidence, and its new steps run from the respawn', async () => {
    const seen: FailureContext[] = [];
    const h = await harness(
      { ground: { radius: 40 } },
      {
        planner: {
          name: 'replanner',
          onFailure: (context) => {
            seen.push(context);
            return Promise.resolve({ steps: [{ stepId: 'again', type: 'navigate', args: STEPS.navigate.args }] });
          },
        },
      },
    );
    h.clock.setTimeout(() => h.world.setHealth(0, 'zombie'), 1000);
    const result = await h.run(plan(STEPS.navigate));
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true, escalations: 1 });
    expect(seen.map((c) => [c.failedStep.stepId, c.failure.code])).toEqual([['walk', 'died']]);
    expect(seen[0]!.failure.detail).toMatch(/killed by zombie from health 20, 1 s into the step/);
    expect(seen[0]!.evidence).toContainEqual(
      expect.objectContaining({ type: 'incident', kind: 'death', stepId: 'walk' }),
    );
  });
});
