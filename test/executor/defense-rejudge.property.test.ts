import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EntityInfo } from '../../src/contracts/world.js';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { JOIN_WATCH_MS } from '../../src/kit/break-off.js';
import { joinDistance } from '../../src/kit/joining.js';
import { TICK_MS } from '../../src/world/mob-rules/index.js';
import type { Harness } from '../helpers/executor.js';
import { nightWork } from '../helpers/night-fight.js';

/*
 * Issue 30, the class: over generated encounters where mobs arrive in the middle of a fight, every fight a mob joins
 * that it was not judged on is judged again at once, on the new encounter, at the health the bot has then; a re-judged
 * mob is part of the next fight (no break-off for it again, no loop past the defence rounds); and the bot lives.
 */

type Kind = 'zombie' | 'spider';

interface Encounter {
  health: number;
  held: 'wooden_sword' | 'stone_sword';
  /** Zombies on the bot at the start, blocks off along +x and +z. */
  zombies: number[];
  /** Mobs released mid-fight: their kind, bearing, distance (within their follow range) and delay after the fight starts. */
  arrivals: { name: Kind; bearing: number; distance: number; afterMs: number }[];
}

type Ended = Extract<ExecutorEvent, { type: 'step.ended' }>;
type Emergency = Extract<ExecutorEvent, { type: 'safety.emergency' }>;

const ROUNDS = 8;

const detailOf = (e: Ended): string => (e.outcome.ok ? '' : e.outcome.detail);

const encounters: fc.Arbitrary<Encounter> = fc.record({
  health: fc.integer({ min: 12, max: 20 }),
  held: fc.constantFrom('wooden_sword' as const, 'stone_sword' as const),
  zombies: fc.array(fc.integer({ min: 4, max: 7 }), { minLength: 1, maxLength: 2 }),
  arrivals: fc.array(
    fc.record({
      name: fc.constantFrom<Kind>('zombie', 'spider'),
      bearing: fc.integer({ min: 90, max: 270 }),
      distance: fc.integer({ min: 11, max: 15 }),
      afterMs: fc.integer({ min: 200, max: 4_000 }),
    }),
    { minLength: 1, maxLength: 2 },
  ),
});

describe('a fight joined mid-way is judged again, over generated encounters', () => {
  it('each joined fight is judged again at once on the new encounter; no loop past the rounds; the bot lives', async () => {
    await fc.assert(
      fc.asyncProperty(encounters, async (encounter) => {
        const { events, deaths, story, crossings } = await runEncounter(encounter);
        // A fight ends at the look after a mob it was not judged on came within reach (or sooner, won).
        for (const { crossedAt, endedAt } of crossings)
          expect(endedAt - crossedAt, story).toBeLessThanOrEqual(JOIN_WATCH_MS + TICK_MS);
        const joined = events.filter(
          (e): e is Ended =>
            e.type === 'step.ended' && e.verb === 'attack_entity' && /joined the fight/.test(detailOf(e)),
        );
        for (const fight of joined) {
          const joiner = /(?:an?|another) (\w+) joined/.exec(detailOf(fight))![1]!;
          const next = events.find((e) => e.at >= fight.at && e.type === 'safety.emergency') as Emergency | undefined;
          expect(next, story).toBeDefined();
          expect(next!.detail, story).toContain(joiner);
        }
        const safetySteps = events.filter((e) => e.type === 'step.started' && e.parentStepId === 'log');
        expect(joined.length, story).toBeLessThanOrEqual(encounter.arrivals.length);
        expect(safetySteps.length, story).toBeLessThanOrEqual(ROUNDS * 5);
        // The bot lives: no death (a dead bot respawns at 20 health, so its health at the end says nothing). Before the
        // flight struck back at what it cannot outrun (flee's strikeBack), this held only where every judgement after a
        // break-off chose a fight: at 12 with a wooden sword, a zombie on it and a spider and a zombie arriving 0.2 s
        // in, the bot judged again at 9 fled all three, and the spider bit it to 0 through two flights.
        expect(deaths, story).toEqual([]);
      }),
      { numRuns: 12, seed: 20_261_207 },
    );
  }, 300_000);
});

async function runEncounter(encounter: Encounter) {
  const { h, collect } = await nightWork({
    pack: { [encounter.held]: 1, wooden_pickaxe: 1 },
    held: 'wooden_pickaxe',
    health: encounter.health,
    logs: [[30, 0]],
    hostiles: encounter.zombies.map((distance, i) => ({ name: 'zombie', x: distance, z: i * 2, ai: true })),
    assembly: { policy: { safety: { maxDefenseRounds: ROUNDS } } },
  });
  let released = false;
  const watch = watchCrossings(h);
  h.assembly.executor.events.on('event', (event) => {
    if (released || event.type !== 'step.started' || event.verb !== 'attack_entity') return;
    released = true;
    for (const arrival of encounter.arrivals)
      h.clock.setTimeout(() => {
        const at = h.world.position();
        const angle = (arrival.bearing * Math.PI) / 180;
        const x = Math.floor(at.x + arrival.distance * Math.cos(angle)) + 0.5;
        const z = Math.floor(at.z + arrival.distance * Math.sin(angle)) + 0.5;
        h.world.spawnEntity({ name: arrival.name, kind: 'hostile', position: { x, y: 0, z }, ai: true });
      }, arrival.afterMs);
  });
  await collect(600_000);
  const story = JSON.stringify({
    encounter,
    events: h.events
      .filter((e) => e.type === 'step.ended' || e.type === 'safety.emergency')
      .map((e) => (e.type === 'step.ended' ? [e.stepId, e.outcome] : [e.type, e.detail])),
  });
  return { events: h.events, deaths: h.deaths, story, crossings: watch.crossings };
}

/**
 * Each fight the safety layer runs (judged on its `judgedOn`, else on its target), and the first moment a hostile not
 * judged on, outside its join distance when the fight began, was within it (a probe each tick): with the fight's end.
 */
function watchCrossings(h: Harness) {
  const crossings: { crossedAt: number; endedAt: number }[] = [];
  let fight: { judged: Set<number>; within: Set<number>; crossedAt: number | null } | null = null;
  const inReach = (e: EntityInfo) => {
    const at = h.world.position();
    const reach = e.kind === 'hostile' ? joinDistance(e.name) : null;
    return reach !== null && Math.hypot(e.position.x - at.x, e.position.y - at.y, e.position.z - at.z) <= reach;
  };
  const unjudgedInReach = (judged: Set<number>) =>
    new Set(
      h.world
        .entities()
        .filter((e) => !judged.has(e.id) && inReach(e))
        .map((e) => e.id),
    );
  const probe = () => {
    if (fight && fight.crossedAt === null) {
      const now = unjudgedInReach(fight.judged);
      if ([...now].some((id) => !fight!.within.has(id))) fight.crossedAt = h.clock.now();
      fight.within = now;
    }
    h.clock.setTimeout(probe, TICK_MS);
  };
  h.assembly.executor.events.on('event', (event) => {
    if (event.type === 'step.started' && event.verb === 'attack_entity') {
      const args = event.args as { target: { id: number }; judgedOn?: number[] };
      const judged = new Set(args.judgedOn ?? [args.target.id]);
      // The ones within reach at the start were seen by the judgement: only a newcomer counts.
      fight = { judged, within: unjudgedInReach(judged), crossedAt: null };
    } else if (event.type === 'step.ended' && event.verb === 'attack_entity' && fight) {
      if (fight.crossedAt !== null) crossings.push({ crossedAt: fight.crossedAt, endedAt: event.at });
      fight = null;
    }
  });
  probe();
  return { crossings };
}
