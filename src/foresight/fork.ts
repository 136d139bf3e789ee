import type { Clock } from '../contracts/clock.js';
import type { BlockInfo, Vec3Like } from '../contracts/world.js';
import type { GeneratedMob, Terrain } from '../world/terrain/survival-terrain.js';
import { SimWorld } from '../world/sim/index.js';
import { UNKNOWN_CELL, viewIndex, type CapturedView } from './view.js';

/**
 * What stands in a fork's grid for a cell the bot has not seen: a block no body passes and no tool breaks, so a path
 * search treats it as the wall an unloaded chunk is to a real bot. ForkWorld.blockAt answers null for it.
 */
const UNKNOWN_STAND_IN = 'barrier';

export interface ForkOptions {
  clock: Clock;
  /** Mobs live by the game's rules in the fork (default true): foresight asks what they would do. */
  mobsAct?: boolean;
}

/** The view as the ground of a SimWorld: its cells where it saw them, the stand-in elsewhere; counts reads of the unknown. */
class ViewGround implements Terrain {
  readonly seed = 0;
  readonly mobs: readonly GeneratedMob[] = [];
  readonly blockNames: readonly string[];
  readonly spawn: { x: number; y: number; z: number };
  touches = 0;

  constructor(private readonly view: CapturedView) {
    this.blockNames = [...view.palette];
    const { x, y, z } = view.position;
    this.spawn = { x: Math.floor(x), y: Math.floor(y), z: Math.floor(z) };
  }

  isUnknown(x: number, y: number, z: number): boolean {
    const index = viewIndex(this.view, x, y, z);
    return index < 0 || this.view.cells[index] === UNKNOWN_CELL;
  }

  blockAt(x: number, y: number, z: number): string {
    const index = viewIndex(this.view, x, y, z);
    const name = index < 0 ? undefined : this.view.palette[this.view.cells[index] ?? UNKNOWN_CELL];
    if (name !== undefined) return name;
    this.touches++;
    return UNKNOWN_STAND_IN;
  }

  groundHeight(x: number, z: number): number {
    for (let y = this.view.origin.y + this.view.size.y - 1; y >= this.view.origin.y; y--) {
      const name = this.blockAt(x, y, z);
      if (name !== 'air' && name !== UNKNOWN_STAND_IN) return y;
    }
    return this.view.origin.y - 1;
  }
}

/**
 * A SimWorld built from what the bot saw (`forkWorld`). What it did not see stays unknown: not walkable, not
 * diggable, null to blockAt, as an unloaded chunk is on a real server; `unknownTouches` counts every read of it (a
 * path search running into it, a blockAt, a block search), so a branch that leaned on it can be scored lower.
 */
export class ForkWorld extends SimWorld {
  private readonly ground: ViewGround;
  private readonly forkIds = new Map<number, number>();

  constructor(view: CapturedView, options: ForkOptions) {
    const ground = new ViewGround(view);
    const mobsAct = options.mobsAct ?? true;
    super({
      clock: options.clock,
      terrain: ground,
      spawn: ground.spawn,
      inventory: view.inventory,
      heldItem: view.heldItem,
      health: view.health,
      food: view.food,
      unbreakable: view.undiggable,
      ...(view.timeOfDay === null ? {} : { timeOfDay: view.timeOfDay, daylightCycle: true }),
    });
    this.ground = ground;
    for (const { id, name, kind, position, health, item, swelling, aggressive, fuseTicks } of view.entities) {
      const forkId = this.spawnEntity({
        name,
        kind,
        position: { ...position },
        ...(item ? { item: { ...item } } : {}),
        ...(health === null ? {} : { health }),
        ai: mobsAct,
        // A mob goes on with what it was doing: after the bot, a creeper's fuse burning from where it was.
        midAct: {
          ...(swelling === undefined ? {} : { swelling }),
          ...(aggressive === undefined ? {} : { aggressive }),
          ...(fuseTicks === undefined ? {} : { fuseTicks }),
        },
      });
      this.forkIds.set(id, forkId);
    }
    // Building the fork read its surroundings; only what a run does afterwards counts.
    ground.touches = 0;
  }

  /** Reads of cells the bot had not seen since the fork was built. */
  get unknownTouches(): number {
    return this.ground.touches;
  }

  /** The fork's id for an entity the view saw with `viewId`, or undefined. */
  forkIdOf(viewId: number): number | undefined {
    return this.forkIds.get(viewId);
  }

  override blockAt(position: Vec3Like): BlockInfo | null {
    const block = super.blockAt(position);
    const [x, y, z] = [Math.floor(position.x), Math.floor(position.y), Math.floor(position.z)];
    return block && block.name === UNKNOWN_STAND_IN && this.ground.isUnknown(x, y, z) ? null : block;
  }
}

/** A SimWorld copy of the view: see ForkWorld. Nothing in it reaches the world the view was taken from. */
export function forkWorld(view: CapturedView, options: ForkOptions): ForkWorld {
  return new ForkWorld(view, options);
}
