import type { BodyPart } from '../../contracts/world.js';
import { SPAWN_SATURATION } from '../health-rules.js';
import { isKnownItem } from './block-data.js';
import { MAX_STAT } from './constants.js';
import type { Cell } from './terrain.js';

/** The bot itself: where it stands, which way it faces, what it carries and wears, and its health and hunger. */
export class Body {
  /** The live position (feet, block-centred); SimWorld.position() hands out this object to stay allocation-free. */
  readonly feet = { x: 0.5, y: 0, z: 0.5 };
  readonly items = new Map<string, number>();
  readonly worn = new Map<BodyPart, string>();
  facing = 0;
  held: string | null = null;
  health = MAX_STAT;
  food = MAX_STAT;
  /** Spent before food (src/world/health-rules.ts); never above the food. */
  saturation = SPAWN_SATURATION;
  /** Exertion not yet paid for in saturation or food. */
  exhaustion = 0;
  /** The cell the bot stands in (src/contracts/stands-on.ts); its feet rest on the ground's real top in it. */
  private standingY = 0;

  /** `feetHeight`: where feet rest in a cell, on the collision top of the ground there (the terrain's, see Terrain). */
  constructor(private readonly feetHeight: (x: number, y: number, z: number) => number = (_x, y) => y) {}

  /** Puts the bot in a cell, its feet on the ground there: at 4.9375 in cell 5 over farmland, not at 5. */
  setFeet(x: number, y: number, z: number): void {
    this.standingY = y;
    this.feet.x = x + 0.5;
    this.feet.y = this.feetHeight(x, y, z);
    this.feet.z = z + 0.5;
  }

  cellX(): number {
    return Math.floor(this.feet.x);
  }
  cellY(): number {
    return this.standingY;
  }
  cellZ(): number {
    return Math.floor(this.feet.z);
  }
  cell(): Cell {
    return { x: this.cellX(), y: this.cellY(), z: this.cellZ() };
  }

  /** Whether the bot's two-block-tall body fills `cell`. */
  occupies(cell: Cell): boolean {
    return (
      cell.x === this.cellX() && cell.z === this.cellZ() && (cell.y === this.cellY() || cell.y === this.cellY() + 1)
    );
  }

  count(name: string): number {
    return this.items.get(name) ?? 0;
  }

  giveItem(name: string, count: number): void {
    if (!isKnownItem(name))
      throw new Error(`giveItem: "${name}" is not a Minecraft 1.21.4 item name (e.g. "cobblestone")`);
    this.addItems(name, count);
  }

  addItems(name: string, count: number): void {
    this.items.set(name, this.count(name) + count);
  }

  takeItems(name: string, count: number): void {
    const left = this.count(name) - count;
    if (left > 0) this.items.set(name, left);
    else {
      this.items.delete(name);
      if (this.held === name) this.held = null;
    }
  }
}

export function clampStat(value: number): number {
  return Math.max(0, Math.min(MAX_STAT, value));
}
