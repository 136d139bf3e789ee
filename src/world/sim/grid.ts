import type { Terrain } from '../terrain/survival-terrain.js';
import { AIR } from './block-data.js';
import type { BlockState } from '../../contracts/world.js';
import { blockState } from '../activation.js';

/** The generated ground under explicit blocks: a flat slab, optionally only within `radius` of a center. */
export interface GroundOptions {
  /** y of the surface block; the bot stands at top + 1. */
  top: number;
  surface: string;
  filler: string;
  fillerDepth: number;
  /** Below the filler; the bottom layer is always bedrock. */
  deep: string;
  bottom: number;
  /** When set, ground exists only where max(|x - cx|, |z - cz|) <= radius: an island. */
  radius?: number;
  center?: { x: number; z: number };
}

export const DEFAULT_GROUND: GroundOptions = {
  top: -1,
  surface: 'grass_block',
  filler: 'dirt',
  fillerDepth: 3,
  deep: 'stone',
  bottom: -64,
};

const XZ_OFFSET = 2 ** 20;
const Y_OFFSET = 512;
const Y_SPAN = 1024;
const XZ_SPAN = 2 ** 21;

/** Packs a cell into one safe integer, so the sparse map and path search key on numbers, not strings. */
export function cellKey(x: number, y: number, z: number): number {
  return ((x + XZ_OFFSET) * XZ_SPAN + (z + XZ_OFFSET)) * Y_SPAN + (y + Y_OFFSET);
}

export function keyX(key: number): number {
  return Math.floor(key / (Y_SPAN * XZ_SPAN)) - XZ_OFFSET;
}
export function keyZ(key: number): number {
  return (Math.floor(key / Y_SPAN) % XZ_SPAN) - XZ_OFFSET;
}
export function keyY(key: number): number {
  return (key % Y_SPAN) - Y_OFFSET;
}

/** Blocks as a sparse map of explicit cells over a generated ground. */
export class BlockGrid {
  private readonly cells = new Map<number, string>();
  /** The state using a block changed (a door opened, a lever flipped); a block set anew starts from its default. */
  private readonly toggled = new Map<number, Record<string, boolean>>();
  /** Bumped on every change, so a walking bot knows when to re-check its path. */
  version = 0;

  /** `terrain`, when given, is the ground instead of the flat slab. */
  constructor(
    readonly ground: GroundOptions | null,
    private readonly terrain: Terrain | null = null,
  ) {}

  get(x: number, y: number, z: number): string {
    return this.cells.get(cellKey(x, y, z)) ?? this.groundAt(x, y, z);
  }

  set(x: number, y: number, z: number, name: string): void {
    this.cells.set(cellKey(x, y, z), name);
    this.toggled.delete(cellKey(x, y, z));
    this.version++;
  }

  state(x: number, y: number, z: number): BlockState {
    return blockState(this.get(x, y, z), this.toggled.get(cellKey(x, y, z)));
  }

  setState(x: number, y: number, z: number, state: BlockState): void {
    if (state.name !== this.get(x, y, z)) this.set(x, y, z, state.name);
    this.toggled.set(cellKey(x, y, z), { ...state.properties });
    this.version++;
  }

  /** Every explicitly set cell (placed, dug or filled), in insertion order. */
  explicitCells(): IterableIterator<[number, string]> {
    return this.cells.entries();
  }

  groundBlockNames(): readonly string[] {
    if (this.terrain) return this.terrain.blockNames;
    const g = this.ground;
    return g ? [g.surface, g.filler, g.deep, 'bedrock'] : [];
  }

  groundAt(x: number, y: number, z: number): string {
    if (this.terrain) return this.terrain.blockAt(x, y, z);
    const g = this.ground;
    if (!g || y > g.top || y < g.bottom) return AIR;
    if (g.radius !== undefined) {
      const cx = g.center?.x ?? 0;
      const cz = g.center?.z ?? 0;
      if (Math.max(Math.abs(x - cx), Math.abs(z - cz)) > g.radius) return AIR;
    }
    if (y === g.top) return g.surface;
    if (y === g.bottom) return 'bedrock';
    return y >= g.top - g.fillerDepth ? g.filler : g.deep;
  }
}
