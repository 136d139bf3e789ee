import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assess } from '../../../src/executor/safety/assess.js';
import { weaponStats } from '../../../src/executor/safety/encounter.js';
import { arrowsOnFlight, flightBreakOff } from '../../../src/executor/safety/flight.js';
import type { CombatSettings, HostileSeen, Reach } from '../../../src/executor/safety/observation.js';
import { responseFor } from '../../../src/executor/safety/responses.js';
import { encounter, mobSeen } from './observe.js';

/*
 * Issue 30, server tech-tree world 10: a flight "in an archer's sight for 2.7 s: expected 3.6 from arrows" ran on for
 * 16 s with the skeleton following and shooting, and the bot died in it from 20 health. A flight under arrows now
 * carries its break-off: the estimate's arrows and one arrow more; below it the flight stops to be judged again.
 */

const auto: CombatSettings = { combat: 'auto', fightHealthFloor: 6 };
const seen = (id: number, name: string, distance: number, reach: Reach): HostileSeen =>
  mobSeen(name, reach)(id, distance);

describe('a flight under arrows breaks off when it costs more than judged', () => {
  it('fleeing a skeleton 9 blocks off at 20 health, bare-handed: flee breaks off below 20 less the arrows and one more', () => {
    const observed = encounter([seen(1, 'skeleton', 9, 'bow')], { health: 20 });
    const a = assess(observed, { ...auto, combat: 'avoid' }, weaponStats);
    const flight = a.choices.find((c) => c.kind === 'flee');
    expect(flight).toBeDefined();
    const expected = arrowsOnFlight(observed, a.threats).damage;
    expect(expected).toBeGreaterThan(0);
    expect(flight).toMatchObject({ kind: 'flee', breakOffBelow: Math.round((20 - expected - 5) * 10) / 10 });
    expect(responseFor(flight!, null).args).toMatchObject({
      breakOffBelow: flight!.kind === 'flee' && flight!.breakOffBelow,
    });
  });

  it('from walkers alone a flight never breaks off for its health: they are outrun or struck back at', () => {
    const a = assess(
      encounter([seen(1, 'zombie', 3, 'melee'), seen(2, 'zombie', 4, 'melee')], { health: 6 }),
      auto,
      weaponStats,
    );
    const flight = a.choices.find((c) => c.kind === 'flee');
    expect(flight).toMatchObject({ kind: 'flee', breakOffBelow: 0 });
    expect(responseFor(flight!, null).args).not.toHaveProperty('breakOffBelow');
  });

  it('over generated encounters: the point is below the health at the start, and 0 with no archer among the threats', () => {
    const kinds = ['zombie', 'skeleton', 'spider', 'creeper'] as const;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ kind: fc.constantFrom(...kinds), distance: fc.double({ min: 2, max: 15, noNaN: true }) }),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        fc.integer({ min: 1, max: 20 }),
        (mobs, health) => {
          const threats = mobs.map((m, i) =>
            seen(
              i + 1,
              m.kind,
              m.distance,
              m.kind === 'skeleton' ? 'bow' : m.kind === 'creeper' ? 'explosion' : 'melee',
            ),
          );
          const observed = encounter(threats, { health });
          const below = flightBreakOff(observed, threats);
          expect(below).toBeGreaterThanOrEqual(0);
          if (below > 0) expect(below).toBeLessThan(health);
          if (!threats.some((t) => t.reach === 'bow')) expect(below).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
