import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventOf, PlanResult } from '../../src/executor/events.js';
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

/** When the bot first fell to 0 health, and how many actuator commands it had issued by then. */
interface Fall {
  at: number;
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
  h.world.events.on('hurt', (health) => {
    if (health === 0) fall ??= { at: h.clock.now(), commands: h.world.actuatorLog.length };
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

/** Each step's run, from its `step.started` to its `step.ended`. */
function stepRuns(h: Harness) {
  const started = new Map(
    h.events.filter((e): e is EventOf<'step.started'> => e.type === 'step.started').map((e) => [e.stepId, e.at]),
  );
  return h.events
    .filter((e): e is EventOf<'step.ended'> => e.type === 'step.ended')
    .map((e) => ({ stepId: e.stepId, from: started.get(e.stepId) ?? e.at, to: e.at, outcome: e.outcome }));
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
        const spanning = runs.filter((run) => run.from <= fall.at && fall.at <= run.to);
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
});
