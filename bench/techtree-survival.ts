import type { ExecutorEvent } from '../src/executor/events.js';
import { parseScenario, type Scenario } from '../src/world/scenario/index.js';

/**
 * The tech tree's `--survival` world (issue 30 §5): a generated survival world with the daylight cycle running from
 * dusk and hostiles spawning in the dark, the same scenario in SimWorld and on the embedded server.
 */

/**
 * Sunset (12000 ticks): night spawning starts 541 ticks (27 s) later, at 12541, when the run is still gathering
 * logs, so every run meets the night during its first minute and spends the rest of it (a run takes 100–200 s; the
 * night lasts some 500 s) in the dark, as a player's first evening does.
 */
export const DUSK = 12_000;

/** The overworld's night spawns, all of equal weight (zombie 95, the others 100 in the game's spawn list). */
export const NIGHT_KINDS = ['zombie', 'skeleton', 'creeper', 'spider'] as const;

/**
 * Vanilla's hostile cap: 70 monsters over the 17 × 17 chunks around a player. Spread over the spawning disc, that
 * density allows round(70 × π·40² / (289 · 256)) = 5 hostiles within 40 blocks (a zombie's follow range is 35).
 */
const MONSTER_CAP = 70;
const CAP_CHUNKS = 17 * 17;
export const SPAWN_RADIUS = 40;
export const MAX_NEARBY = Math.round((MONSTER_CAP * Math.PI * SPAWN_RADIUS ** 2) / (CAP_CHUNKS * 16 * 16));

/** Generated survival world `seed`; with `nights`, from dusk with the cycle running and night spawning on. */
export function techtreeScenario(seed: number, nights: boolean): Scenario {
  const name = `survival-${seed}${nights ? '-nights' : ''}`;
  const survival = nights
    ? {
        timeOfDay: DUSK,
        daylightCycle: true,
        spawnAtNight: { kinds: [...NIGHT_KINDS], maxNearby: MAX_NEARBY, radius: SPAWN_RADIUS },
      }
    : {};
  return parseScenario({ name, terrain: { kind: 'survival', seed }, ...survival }, `survival seed ${seed}`);
}

/** The safety layer's defences in a run, counted from its `safety.emergency` events by the response it ran. */
export interface Defences {
  fights: number;
  flights: number;
  shelters: number;
  meals: number;
  /** Kills for food: a hunger signal's attack_entity (safety/hunt.ts). */
  hunts: number;
}

const DEFENCE_OF: Record<string, keyof Defences> = {
  attack_entity: 'fights',
  flee: 'flights',
  pillar_up: 'shelters',
  wall_in: 'shelters',
  dig_in: 'shelters',
  consume_food: 'meals',
};

export function defenceCounter() {
  const defences: Defences = { fights: 0, flights: 0, shelters: 0, meals: 0, hunts: 0 };
  const on = (event: ExecutorEvent) => {
    if (event.type !== 'safety.emergency') return;
    const kind = event.signal === 'hunger' && event.response === 'attack_entity' ? 'hunts' : DEFENCE_OF[event.response];
    if (kind) defences[kind]++;
  };
  return { on, defences };
}
