import type { EntityInfo, Vec3Like, WorldPort } from '../contracts/world.js';
import { describeHazardAt, nearestSafeCell } from '../world/hazards.js';
import { type BowAttack, HOSTILE_STATS, type MobTerrain, lineOfSight } from '../world/mob-rules/index.js';
import { EYE_HEIGHT } from '../world/reach.js';
import type { ExecutorPolicy } from './policy.js';

export interface FastPathStep {
  verb: string;
  args: Record<string, unknown>;
}

/** A threat that preempts goal work (safety > goal), with the fast-path capabilities to try, in order. */
export interface SafetySignal {
  signal: 'hazard' | 'hostile' | 'low_health' | 'hunger';
  detail: string;
  responses: FastPathStep[];
}

const SAFETY_SIGNALS: ReadonlySet<string> = new Set<SafetySignal['signal']>([
  'hazard',
  'hostile',
  'low_health',
  'hunger',
]);

/** Whether an interrupt's signal is the safety monitor's (not an urgent intent's or a pause's). */
export function isSafetySignal(signal: string): boolean {
  return SAFETY_SIGNALS.has(signal);
}

const COOLDOWN_MS = 5_000;
/** How far (blocks, horizontally) the way out of a hazard looks for a cell to stand unhurt. */
const ESCAPE_RADIUS = 4;

/** Checks the world each tick for the configured safety signals; cheap, and quiet for a while after each one. */
export class SafetyMonitor {
  private quietUntil = -Infinity;

  constructor(
    private readonly policy: ExecutorPolicy['safety'],
    private readonly world: WorldPort,
  ) {}

  /** With `ignoreHostiles` (the running step is a fight), a hostile nearby is no signal; the others still are. */
  check(now: number, options: { ignoreHostiles?: boolean } = {}): SafetySignal | null {
    if (!this.policy.enabled || now < this.quietUntil) return null;
    const signal = this.detect(options.ignoreHostiles === true);
    if (signal) this.quietUntil = now + COOLDOWN_MS;
    return signal;
  }

  private detect(ignoreHostiles: boolean): SafetySignal | null {
    const { world, policy } = this;
    const at = world.position();
    const hazard = this.hazardHere();
    if (hazard) return { signal: 'hazard', detail: hazard, responses: this.waysOut(at) };
    const hostile = ignoreHostiles ? null : this.nearestThreat(at);
    if (hostile) {
      return {
        signal: 'hostile',
        detail: hostile.detail,
        responses: [
          { verb: 'flee', args: { from: floor(hostile.entity.position), distance: 16 } },
          { verb: 'pillar_up', args: { height: 3 } },
        ],
      };
    }
    if (world.health() < policy.minHealth) {
      return {
        signal: 'low_health',
        detail: `health ${world.health()} below ${policy.minHealth}`,
        responses: [
          { verb: 'consume_food', args: {} },
          { verb: 'pillar_up', args: { height: 3 } },
        ],
      };
    }
    if (world.food() < policy.minFood) {
      return {
        signal: 'hunger',
        detail: `food ${world.food()} below ${policy.minFood}`,
        responses: [{ verb: 'consume_food', args: {} }],
      };
    }
    return null;
  }

  /**
   * The nearest hostile that can hurt the bot from where it is: any hostile within `hostileRadius` (a zombie's melee
   * is a step away), and an archer (a skeleton) within its bow's range with a line of sight from its eyes to the
   * bot's, the line its arrows fly along (src/world/mob-rules, the rules the embedded server's and SimWorld's mobs
   * shoot by). A skeleton behind a wall, or beyond its range, is no threat yet.
   */
  private nearestThreat(at: Vec3Like): { entity: EntityInfo; detail: string } | null {
    const terrain: MobTerrain = { block: (x, y, z) => this.world.blockAt({ x, y, z })?.name ?? null };
    const eyes = { x: at.x, y: at.y + EYE_HEIGHT, z: at.z };
    let nearest: { entity: EntityInfo; distance: number; bow: BowAttack | null } | null = null;
    for (const entity of this.world.entities()) {
      if (entity.kind !== 'hostile') continue;
      const distance = Math.hypot(entity.position.x - at.x, entity.position.y - at.y, entity.position.z - at.z);
      if (nearest && distance >= nearest.distance) continue;
      if (distance <= this.policy.hostileRadius) nearest = { entity, distance, bow: null };
      else {
        const stats = HOSTILE_STATS[entity.name];
        if (!stats?.bow || distance > stats.bow.range) continue;
        const from = { ...entity.position, y: entity.position.y + stats.eyeHeight };
        if (lineOfSight(terrain, from, eyes)) nearest = { entity, distance, bow: stats.bow };
      }
    }
    if (!nearest) return null;
    const away = `${nearest.entity.name} ${nearest.distance.toFixed(1)} blocks away`;
    const detail = nearest.bow ? `${away}, in its bow's range (${nearest.bow.range}) with a line of sight` : away;
    return { entity: nearest.entity, detail };
  }

  /**
   * What burns the bot where it stands, "in lava at 5,4,0", or null: for the
   * hazard signal, and for any failure that ends with the bot still there.
   */
  hazardHere(): string | null {
    const hazards = this.policy.hazardBlocks;
    return describeHazardAt(
      (p) => this.world.blockAt(p),
      this.world.position(),
      (name) => hazards.includes(name),
    );
  }

  /** Out of the hazard: walk to the nearest cell where the bot stands unhurt, else run from it. */
  private waysOut(at: Vec3Like): FastPathStep[] {
    const hazards = this.policy.hazardBlocks;
    const safe = nearestSafeCell(
      (p) => this.world.blockAt(p),
      at,
      ESCAPE_RADIUS,
      (name) => hazards.includes(name),
    );
    const flee: FastPathStep = { verb: 'flee', args: { from: floor(at), distance: 8 } };
    return safe ? [{ verb: 'navigate', args: { target: { kind: 'block', ...safe } } }, flee] : [flee];
  }
}

function floor(position: { x: number; y: number; z: number }) {
  return { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
}
