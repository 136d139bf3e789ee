import type { Clock, TimerHandle } from '../../contracts/clock.js';
import { type NavigationGoal, type PathStatus, type UnstuckMove, WorldError } from '../../contracts/world.js';
import { isWaterFilled } from '../breath-rules.js';
import type { Body } from './body.js';
import { JUMP_AIRTIME_MS, JUMP_RISE_MS, LOWEST_Y } from './constants.js';
import type { Operation } from './operation.js';
import { walkPath } from './walk-path.js';
import { DIRECTIONS, type Terrain } from './terrain.js';

export interface LocomotionParts {
  clock: Clock;
  terrain: Terrain;
  body: Body;
  stepMs: number;
  maxSearchNodes: number;
  emitPath: (status: PathStatus) => void;
  /** Runs after every cell the bot moves into. */
  afterMove: () => void;
  /** Runs as a jump leaves the ground (it exhausts the body, as the server's health plugin counts it). */
  jumped: () => void;
}

/**
 * Everything that moves the bot: path walking, unstuck moves, jumps and
 * falling. Only one moving call owns the legs at a time; a newer one preempts it.
 */
export class Locomotion {
  private owner: Operation | null = null;
  /** Pending jump physics (rise, then land); not an actuator, so it outlives the move() call. */
  private readonly jumpTimers: TimerHandle[] = [];

  constructor(private readonly parts: LocomotionParts) {}

  take(op: Operation): void {
    this.owner?.fail(new WorldError('preempted', `${this.owner.command} was replaced by a newer ${op.command}`));
    this.owner = op;
    op.onEnd(() => {
      if (this.owner !== op) return;
      this.owner = null;
      this.float();
    });
  }

  stop(): void {
    this.owner?.fail(new WorldError('aborted', `${this.owner.command} was stopped by stopMovement()`));
  }

  walkTo(op: Operation, goal: NavigationGoal): void {
    walkPath(op, goal, this.parts, (target) => this.faceTowards(target));
  }

  move(op: Operation, move: UnstuckMove, durationMs: number): void {
    if (move === 'jump') this.jump(durationMs);
    else this.walkFor(op, move, durationMs);
  }

  /** Drops the bot to whatever is below it now, unless it is mid-jump (the landing does that); true when it fell. */
  fall(): boolean {
    if (this.jumpTimers.length > 0) return false;
    const { body, terrain } = this.parts;
    const restY = terrain.restingY(body.cellX(), body.cellY(), body.cellZ(), LOWEST_Y);
    if (restY === body.cellY()) return false;
    body.setFeet(body.cellX(), restY, body.cellZ());
    // Where it lands counts as a move: into lava, say.
    this.parts.afterMove();
    this.float();
    return true;
  }

  /**
   * An idle body in water rises to the surface, as MineflayerWorld's keepAfloat holds jump for a real bot: feet in the
   * column's top water cell, eyes in the open cell above it, breathing. A walk swims along the floor (SimWorld's water
   * is walked through as the path search plans it); once nothing moves the bot, it floats up. Under a roof (no open
   * cell above the water) it stays where it is.
   */
  float(): void {
    if (this.owner !== null || this.jumpTimers.length > 0) return;
    const { body, terrain } = this.parts;
    const [x, z] = [body.cellX(), body.cellZ()];
    let top = body.cellY();
    if (!isWaterFilled(terrain.grid.get(x, top, z))) return;
    while (isWaterFilled(terrain.grid.get(x, top + 1, z))) top++;
    if (top === body.cellY() || !terrain.passable(x, top + 1, z)) return;
    body.setFeet(x, top, z);
    this.parts.afterMove();
  }

  /** Whether the body is in a jump (off the ground from the jump's start until it lands): it stands on nothing. */
  airborne(): boolean {
    return this.jumpTimers.length > 0;
  }

  cancelJumps(): void {
    for (const timer of this.jumpTimers.splice(0)) this.parts.clock.clearTimeout(timer);
  }

  private walkFor(op: Operation, move: Exclude<UnstuckMove, 'jump'>, durationMs: number): void {
    const { body, terrain, stepMs } = this.parts;
    const turn = { forward: 0, right: 1, back: 2, left: 3 }[move];
    const [dx, dz] = DIRECTIONS[(body.facing + turn) % 4]!;
    const steps = Math.floor(durationMs / stepMs);
    const stepOnce = (taken: number) => {
      if (taken >= steps) return;
      op.after(stepMs, () => {
        const target = terrain.step(body.cellX(), body.cellY(), body.cellZ(), dx, dz, false);
        if (target) {
          body.setFeet(target.x, target.y, target.z);
          this.parts.afterMove();
        }
        stepOnce(taken + 1);
      });
    };
    stepOnce(0);
  }

  /**
   * Lifts the bot one block after JUMP_RISE_MS and lands it later, on whatever is below by then (e.g. a block placed
   * under it).
   */
  private jump(durationMs: number): void {
    if (this.jumpTimers.length > 0) return;
    const { body, terrain, clock } = this.parts;
    const [x, y, z] = [body.cellX(), body.cellY(), body.cellZ()];
    const canRise = terrain.solid(x, y - 1, z) && terrain.passable(x, y + 2, z);
    const physics = (delayMs: number, effect: () => void) => {
      const timer = clock.setTimeout(() => {
        this.jumpTimers.splice(this.jumpTimers.indexOf(timer), 1);
        effect();
      }, delayMs);
      this.jumpTimers.push(timer);
    };
    if (canRise) {
      this.parts.jumped();
      physics(JUMP_RISE_MS, () => body.setFeet(x, y + 1, z));
    }
    physics(Math.max(JUMP_AIRTIME_MS, durationMs), () => {
      if (!this.fall()) this.parts.afterMove();
    });
  }

  faceTowards(target: { x: number; z: number }): void {
    const { body } = this.parts;
    const dx = Math.sign(target.x - body.cellX());
    const dz = Math.sign(target.z - body.cellZ());
    const index = DIRECTIONS.findIndex(([x, z]) => x === dx && z === dz);
    if (index >= 0) body.facing = index;
  }
}
