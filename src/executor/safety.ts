import type { Vec3Like, WorldPort } from '../contracts/world.js';
import { describeHazardAt, nearestSafeCell } from '../world/hazards.js';
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
    const hostile = world
      .entities()
      .filter((e) => e.kind === 'hostile')
      .map((e) => ({ entity: e, distance: Math.hypot(e.position.x - at.x, e.position.y - at.y, e.position.z - at.z) }))
      .filter((e) => e.distance <= policy.hostileRadius)
      .sort((a, b) => a.distance - b.distance)[0];
    if (hostile && !ignoreHostiles) {
      return {
        signal: 'hostile',
        detail: `${hostile.entity.name} ${hostile.distance.toFixed(1)} blocks away`,
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
