import { assess } from '../src/executor/safety/assess.js';
import { weaponStats } from '../src/executor/safety/encounter.js';
import type { EncounterObservation, HostileSeen, Reach } from '../src/executor/safety/observation.js';
import { armourOf } from '../src/world/mob-rules/index.js';
import type { BenchResult } from './types.js';

/**
 * What the safety layer's judgment of an encounter costs (assess: the fight's estimate over each weapon and kill order,
 * the flight's way, the shelters), against one zombie alone measured in the same run. The monitor judges the encounter
 * at each of its checks while a hostile is near, on the bot's own event loop, so a crowd's judgment is time the bot's
 * physics waits for.
 */

const LEATHER = armourOf(['leather_helmet', 'leather_chestplate', 'leather_leggings', 'leather_boots']);

function mob(id: number, name: string, distance: number, health = 20, reach: Reach = 'melee'): HostileSeen {
  return { id, name, distance, health, reach, position: { x: distance, y: 0, z: id * 2 - 8 } };
}

const coming = (id: number, distance: number, arrivesInS: number): HostileSeen => ({
  ...mob(id, 'zombie', distance, 20, 'none'),
  arrivesInS,
});

function encounter(hostiles: HostileSeen[], bot: Partial<EncounterObservation['bot']>): EncounterObservation {
  return {
    hostiles,
    bot: { health: 20, food: 20, held: null, pack: [], armour: armourOf([]), foods: [], blocks: 0, ...bot },
    ground: { wayOut: true },
  };
}

const ENCOUNTERS: { name: string; seen: EncounterObservation }[] = [
  { name: 'a zombie, stone sword', seen: encounter([mob(1, 'zombie', 4)], { held: 'stone_sword' }) },
  {
    name: '3 zombies and one coming, stone sword and leather',
    seen: encounter([mob(1, 'zombie', 4.7), mob(2, 'zombie', 5.5), mob(3, 'zombie', 6.4), coming(4, 18, 6.8)], {
      held: 'stone_sword',
      armour: LEATHER,
    }),
  },
  {
    name: '6 zombies of mixed health and 2 coming, bare hands, a sword and an axe in the pack',
    seen: encounter(
      [
        ...[20, 7, 13, 20, 3, 18].map((health, i) => mob(i + 1, i % 3 === 2 ? 'husk' : 'zombie', 3 + i, health)),
        coming(7, 18, 6),
        coming(8, 20, 8),
      ],
      { pack: ['wooden_sword', 'stone_axe'], blocks: 16 },
    ),
  },
  {
    name: '5 zombies and a skeleton, stone sword',
    seen: encounter([...[3, 4, 5, 6, 7].map((d, i) => mob(i + 1, 'zombie', d)), mob(6, 'skeleton', 9, 20, 'bow')], {
      held: 'stone_sword',
      blocks: 16,
    }),
  },
];

/** Microseconds one assessment takes, over at least `minMs` of repeated runs after a warm-up. */
function microsecondsEach(seen: EncounterObservation, minMs = 1_000): number {
  const settings = { combat: 'auto' as const, fightHealthFloor: 6 };
  for (let i = 0; i < 20; i++) assess(seen, settings, weaponStats);
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    assess(seen, settings, weaponStats);
    runs++;
  }
  return ((performance.now() - start) * 1000) / runs;
}

export default function assessBench(): Promise<BenchResult[]> {
  const [alone, ...crowds] = ENCOUNTERS.map(({ name, seen }) => ({ name, us: microsecondsEach(seen) }));
  const results: BenchResult[] = [{ name: `assess: ${alone!.name}`, value: alone!.us, unit: 'µs' }];
  for (const { name, us } of crowds)
    results.push({ name: `assess: ${name}`, value: us, unit: 'µs', baseline: alone!.us, ratio: us / alone!.us });
  return Promise.resolve(results);
}
