import type { ArmourPiece } from '../../world/mob-rules/index.js';
import { HOSTILE_STATS } from '../../world/mob-rules/index.js';
import type { ShelterVerb } from './shelters.js';

/*
 * What the safety layer's judgment reads and returns (assess.ts): the encounter as the bot sees it, and the
 * responses ranked with their reasons. Shared by the fight's estimate (fight-estimate.ts), the flight's way
 * (flight.ts) and the shelters (shelters.ts).
 */

/** How a hostile can hurt the bot from where it stands now. */
export type Reach = 'melee' | 'bow' | 'explosion' | 'none';

export interface HostileSeen {
  id: number;
  name: string;
  /** Blocks from the bot (3-D, feet to feet). */
  distance: number;
  /** Health left; null when the world does not say (the kind's health at spawn, HOSTILE_STATS, is assumed). */
  health: number | null;
  reach: Reach;
  /** A creeper's fuse is burning (the world shows it swelling); absent when the world does not say. */
  swelling?: boolean;
  /** Where it stands, for the way out (away from every threat's centroid). */
  position: { x: number; y: number; z: number };
  /**
   * A walker beyond the encounter's radius, coming (reach 'none' until it is near): the seconds until it is in melee
   * reach. A fight that lasts longer has it join.
   */
  arrivesInS?: number;
  /**
   * A close-in on it this encounter ended without reaching it (no path: an archer on a ledge or a pillar): no melee
   * with it, so the bot gets out of its sight instead of walking at it again under its arrows.
   */
  unreachable?: boolean;
}

/** What the bot's melee does with one item in hand: damage per hit and the time between full-strength hits. */
export interface WeaponStats {
  /** Before the mob's own armour (damageToMob takes that off per target). */
  damage: number;
  cooldownMs: number;
}

export interface EncounterObservation {
  hostiles: readonly HostileSeen[];
  bot: {
    health: number;
    food: number;
    /** What the main hand holds now. */
    held: string | null;
    /** Items in the pack that could be held instead (weapons, tools); the hand's item need not be repeated. */
    pack: readonly string[];
    armour: ArmourPiece;
    /** Food items the pack holds (eating between fights). */
    foods: readonly string[];
    /** The most blocks of one building block in the pack: what a pillar or a wall is built of (shelterBlockCount). */
    blocks: number;
    /** Where it stands (the feet); absent when not known: a flight then runs from the threats' centre. */
    position?: { x: number; y: number; z: number };
  };
  ground: {
    /** A walkable way away from every threat (from their centroid). */
    wayOut: boolean;
    /** The shelter the bot stands in now (up a pillar, behind a wall, dug in); absent or null in the open. */
    shelter?: ShelterVerb | null;
    /** Open cells over the bot's head, counted up to a pillar's height; absent when not measured (room assumed). */
    headroom?: number;
    /**
     * Digging in here (dig_in): the three cells under the bot, the time they take with the best tool at hand and
     * whether what they drop can close the hole's top; null when they are not three solid cells a tool breaks; absent
     * when not measured (a shovel or a pickaxe and a block in the pack are then what it takes).
     */
    digIn?: { ms: number; yieldsCover: boolean } | null;
  };
}

export interface CombatSettings {
  /** 'avoid' never starts a fight: flee or shelter. */
  combat: 'auto' | 'avoid';
  /** The health a fight must be expected to leave the bot with, at least. */
  fightHealthFloor: number;
}

export type Choice =
  | {
      kind: 'fight' | 'close_in';
      target: HostileSeen;
      weapon: string | null;
      breakOffBelow: number;
      /** The mobs the fight is judged on (its targets, the walkers counted as joining it): another one joining it breaks it off. */
      judgedOn: number[];
      reason: string;
    }
  | {
      kind: 'flee';
      from: { x: number; y: number; z: number };
      /** The kinds to end clear of, judged where they are when the flight ends. */
      clearOf: string[];
      /** The kinds that keep pace with the flight (a spider): struck when they catch up, with `weapon` drawn first. */
      strikeBack: string[];
      weapon: string | null;
      distance: number;
      /** Health below which the flight breaks off to be judged again (0: never): under arrows, costing more than judged. */
      breakOffBelow: number;
      /** Every hostile the flight's way was judged with: another one that comes at the bot on the way breaks it off. */
      judgedOn: number[];
      reason: string;
    }
  | {
      kind: 'shelter';
      /** The capability that builds it: up a pillar, behind a wall, or dug into the ground under a closed top. */
      verb: ShelterVerb;
      /** A pillar's height. */
      height?: number;
      reason: string;
    }
  | { kind: 'eat'; food: string; reason: string };

export interface Assessment {
  /** Best first; the fast path runs the first whose capability can run here. Empty when nothing threatens. */
  choices: Choice[];
  /** The fight's estimate with the best weapon (null when no hostile can be fought). */
  fight: FightEstimate | null;
  /** The hostiles that can reach the bot now. */
  threats: readonly HostileSeen[];
}

export interface FightEstimate {
  weapon: string | null;
  damagePerHit: number;
  /** Health the bot is expected to lose before every reachable hostile is dead. */
  expectedDamage: number;
  /** Seconds the fight is expected to last, the walkers that join it included. */
  seconds: number;
  targets: readonly HostileSeen[];
}

export function isArcher(hostile: HostileSeen): boolean {
  return hostile.reach === 'bow' || HOSTILE_STATS[hostile.name]?.bow !== undefined;
}

export function isCreeper(hostile: HostileSeen): boolean {
  return hostile.reach === 'explosion' || HOSTILE_STATS[hostile.name]?.fuse !== undefined;
}

/** The threats' centre: a flight starts from it, a bot out of its shelter steps out away from it. */
export function centroid(hostiles: readonly HostileSeen[]): { x: number; y: number; z: number } {
  const sum = hostiles.reduce((s, h) => ({ x: s.x + h.position.x, y: s.y + h.position.y, z: s.z + h.position.z }), {
    x: 0,
    y: 0,
    z: 0,
  });
  const n = hostiles.length;
  return { x: sum.x / n, y: sum.y / n, z: sum.z / n };
}

/** "3 zombies", "2 zombies and a skeleton". */
export function countByKind(hostiles: readonly { name: string }[]): string {
  const counts = new Map<string, number>();
  for (const h of hostiles) counts.set(h.name, (counts.get(h.name) ?? 0) + 1);
  const parts = [...counts].map(([name, n]) => (n === 1 ? `a ${name}` : `${n} ${name}s`));
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0]!;
}

/** Rounded to a tenth, as the reasons print it. */
export function round(n: number): number {
  return Math.round(n * 10) / 10;
}
