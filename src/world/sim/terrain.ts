import { isBodyHazard, isFloorHazard } from '../hazards.js';
import { collisionTops, isWalkThrough, restingFeetY } from '../stands-on.js';
import type { BlockGrid } from './grid.js';

/** Highest fall the bot takes on its own, as mineflayer-pathfinder's default maxDropDown allows. */
export const MAX_DROP = 3;

export interface Cell {
  x: number;
  y: number;
  z: number;
}

/** The four horizontal directions, in a fixed order so searches are deterministic. */
export const DIRECTIONS: readonly (readonly [number, number])[] = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];

/**
 * Walking rules over a block grid: where a two-block-tall bot can stand and which cells it can step between. A cell
 * is passable when its block has nothing to collide with, or only a floor covering (a carpet, stood on in its cell).
 */
export class Terrain {
  private readonly passableByName = new Map<string, boolean>();

  constructor(readonly grid: BlockGrid) {}

  passable(x: number, y: number, z: number): boolean {
    const name = this.grid.get(x, y, z);
    let known = this.passableByName.get(name);
    if (known === undefined) {
      known = isWalkThrough(name);
      this.passableByName.set(name, known);
    }
    return known;
  }

  /** Where feet rest in the cell: on the real collision top of the ground there (see src/world/stands-on.ts). */
  feetHeight(x: number, y: number, z: number): number {
    return restingFeetY({ x, y, z }, this.topsAt);
  }

  /** The collision tops of the block in a cell (its name's default state: the grid holds names). */
  readonly topsAt = (cell: Cell): readonly number[] => collisionTops(this.grid.get(cell.x, cell.y, cell.z));

  solid(x: number, y: number, z: number): boolean {
    return !this.passable(x, y, z);
  }

  standable(x: number, y: number, z: number): boolean {
    return this.solid(x, y - 1, z) && this.passable(x, y, z) && this.passable(x, y + 1, z);
  }

  /**
   * Whether a bot with feet in (x, y, z) gets hurt there: lava or fire around its body, magma or a campfire under it.
   */
  hazardous(x: number, y: number, z: number): boolean {
    return (
      isBodyHazard(this.grid.get(x, y, z)) ||
      isBodyHazard(this.grid.get(x, y + 1, z)) ||
      isFloorHazard(this.grid.get(x, y - 1, z))
    );
  }

  /**
   * Where a step from (x, y, z) in direction (dx, dz) lands, or null when the way is blocked; `jump` allows a step up.
   * With `avoidHazards` (path planning) a step that lands in a hazard or falls through one is blocked too;
   * without it (the body's own physics, an unstuck move) the bot goes wherever the blocks let it.
   */
  step(x: number, y: number, z: number, dx: number, dz: number, jump: boolean, avoidHazards = false): Cell | null {
    const nx = x + dx;
    const nz = z + dz;
    const land = (ly: number): Cell | null =>
      avoidHazards && this.hazardous(nx, ly, nz) ? null : { x: nx, y: ly, z: nz };
    if (this.standable(nx, y, nz)) return land(y);
    if (jump && this.passable(x, y + 2, z) && this.standable(nx, y + 1, nz)) return land(y + 1);
    if (!this.passable(nx, y, nz) || !this.passable(nx, y + 1, nz)) return null;
    for (let drop = 1; drop <= MAX_DROP; drop++) {
      if (!this.passable(nx, y - drop, nz)) return null;
      if (avoidHazards && isBodyHazard(this.grid.get(nx, y - drop + 1, nz))) return null;
      if (this.solid(nx, y - drop - 1, nz)) return land(y - drop);
    }
    return null;
  }

  /** Whether one path move from `from` to `to` is still possible (the world may have changed under a walking bot). */
  canMove(from: Cell, to: Cell, avoidHazards: boolean): boolean {
    const landed = this.step(from.x, from.y, from.z, to.x - from.x, to.z - from.z, true, avoidHazards);
    return landed !== null && landed.y === to.y;
  }

  /** The y the bot comes to rest at when falling from (x, y, z); stops at `floor` when nothing is below. */
  restingY(x: number, y: number, z: number, floor: number): number {
    let restY = y;
    while (restY > floor && this.passable(x, restY - 1, z)) restY--;
    return restY;
  }
}
