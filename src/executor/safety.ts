import type { WorldPort } from '../contracts/world.js';
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

/** Checks the world each tick for the configured safety signals; cheap, and quiet for a while after each one. */
export class SafetyMonitor {
  private quietUntil = -Infinity;

  constructor(
    private readonly policy: ExecutorPolicy['safety'],
    private readonly world: WorldPort,
  ) {}

  check(now: number): SafetySignal | null {
    if (!this.policy.enabled || now < this.quietUntil) return null;
    const signal = this.detect();
    if (signal) this.quietUntil = now + COOLDOWN_MS;
    return signal;
  }

  private detect(): SafetySignal | null {
    const { world, policy } = this;
    const at = world.position();
    for (const dy of [0, -1]) {
      const block = world.blockAt({ x: at.x, y: at.y + dy, z: at.z });
      if (block && policy.hazardBlocks.includes(block.name)) {
        return { signal: 'hazard', detail: `standing ${dy === 0 ? 'in' : 'on'} ${block.name}`, responses: [{ verb: 'flee', args: { from: floor(at), distance: 8 } }] };
      }
    }
    const hostile = world
      .entities()
      .filter((e) => e.kind === 'hostile')
      .map((e) => ({ entity: e, distance: Math.hypot(e.position.x - at.x, e.position.y - at.y, e.position.z - at.z) }))
      .filter((e) => e.distance <= policy.hostileRadius)
      .sort((a, b) => a.distance - b.distance)[0];
    if (hostile) {
      return {
        signal: 'hostile',
        detail: `${hostile.entity.name} ${hostile.distance.toFixed(1)} blocks away`,
        responses: [{ verb: 'flee', args: { from: floor(hostile.entity.position), distance: 16 } }, { verb: 'pillar_up', args: { height: 3 } }],
      };
    }
    if (world.health() < policy.minHealth) {
      return {
        signal: 'low_health',
        detail: `health ${world.health()} below ${policy.minHealth}`,
        responses: [{ verb: 'consume_food', args: {} }, { verb: 'pillar_up', args: { height: 3 } }],
      };
    }
    if (world.food() < policy.minFood) {
      return { signal: 'hunger', detail: `food ${world.food()} below ${policy.minFood}`, responses: [{ verb: 'consume_food', args: {} }] };
    }
    return null;
  }
}

function floor(position: { x: number; y: number; z: number }) {
  return { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
}
