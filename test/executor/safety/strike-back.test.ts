import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assess } from '../../../src/executor/safety/assess.js';
import { weaponStats } from '../../../src/executor/safety/encounter.js';
import { keepsPace } from '../../../src/executor/safety/flight.js';
import type { CombatSettings, HostileSeen } from '../../../src/executor/safety/observation.js';
import { responseFor } from '../../../src/executor/safety/responses.js';
import { arbEncounter, arbSettings } from './arbitraries.js';
import { encounter } from './observe.js';

const auto: CombatSettings = { combat: 'auto', fightHealthFloor: 6 };

const melee = (id: number, name: string, x: number, z = 0): HostileSeen => ({
  id,
  name,
  distance: Math.hypot(x, z),
  health: name === 'spider' ? 16 : 20,
  reach: 'melee',
  position: { x, y: 0, z },
});

describe('a flight strikes back at what keeps pace with it (issue 30)', () => {
  it('at 9 with a wooden sword, fleeing a spider and a zombie: clear of the zombie, striking the spider, the sword drawn', () => {
    const seen = encounter([melee(1, 'spider', 2, 1), melee(2, 'zombie', 4)], {
      health: 9,
      held: 'wooden_pickaxe',
      pack: ['wooden_sword'],
      position: { x: 0, y: 0, z: 0 },
    });
    const flight = assess(seen, auto, weaponStats).choices.find((c) => c.kind === 'flee')!;
    expect(flight).toMatchObject({ clearOf: ['zombie'], strikeBack: ['spider'], weapon: 'wooden_sword' });
    expect(responseFor(flight, 'wooden_pickaxe')).toMatchObject({
      verb: 'flee',
      args: { clearOf: ['zombie'], strikeBack: ['spider'] },
      before: [{ verb: 'equip', args: { item: 'wooden_sword' } }],
    });
  });

  it('over generated encounters: a flight strikes back at exactly the kinds that keep pace, with the fight’s weapon', () => {
    fc.assert(
      fc.property(arbEncounter, arbSettings, (seen, settings) => {
        const { choices, threats, fight } = assess(seen, settings, weaponStats);
        for (const choice of choices) {
          if (choice.kind !== 'flee') continue;
          const pacers = [...new Set(threats.filter(keepsPace).map((h) => h.name))];
          expect(choice.strikeBack.toSorted()).toEqual(pacers.toSorted());
          const { args, before } = responseFor(choice, seen.bot.held);
          expect(args.strikeBack).toEqual(pacers.length > 0 ? choice.strikeBack : undefined);
          const draws = pacers.length > 0 && fight?.weapon != null && fight.weapon !== seen.bot.held;
          expect(before).toEqual(draws ? [{ verb: 'equip', args: { item: fight.weapon } }] : undefined);
        }
      }),
      { numRuns: 300 },
    );
  });
});
