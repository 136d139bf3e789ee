import { blockKey, type Vec3Like } from '../../contracts/world.js';
import { CHEST_BLOCKS, FURNACE_BLOCK } from '../actuator-rules.js';
import { burnTicks, SMELT_TICKS_PER_ITEM, smeltsInto } from '../smelting.js';

const MS_PER_TICK = 50;
const STACK = 64;

interface Stack {
  name: string;
  count: number;
}

/**
 * A furnace as vanilla runs one: a slot each for input, fuel and output; it
 * lights a fuel item when it has something to cook and no heat left, and
 * cooks one item every 200 ticks while it burns. It keeps going with nobody
 * at it, so its state is brought up to date from the clock whenever it is read.
 */
export class SimFurnace {
  input: Stack | null = null;
  fuel: Stack | null = null;
  output: Stack | null = null;
  private burnLeft = 0;
  private cooked = 0;

  constructor(private lastAt: number) {}

  /** Runs the furnace up to `now` (ms). */
  advance(now: number): void {
    let ticks = Math.floor((now - this.lastAt) / MS_PER_TICK);
    this.lastAt += ticks * MS_PER_TICK;
    while (ticks > 0) {
      const product = this.input ? smeltsInto(this.input.name) : null;
      const canCook =
        product !== null && (this.output === null || (this.output.name === product && this.output.count < STACK));
      if (this.burnLeft === 0 && canCook && this.fuel) {
        this.burnLeft = burnTicks(this.fuel.name) ?? 0;
        this.fuel = take(this.fuel, 1);
      }
      if (this.burnLeft === 0) return;
      if (!canCook) {
        // Vanilla lets the fire die out when there is nothing to cook, and the cooking progress cools down.
        const spent = Math.min(ticks, this.burnLeft);
        this.burnLeft -= spent;
        this.cooked = 0;
        ticks -= spent;
        continue;
      }
      const step = Math.min(ticks, this.burnLeft, SMELT_TICKS_PER_ITEM - this.cooked);
      this.burnLeft -= step;
      this.cooked += step;
      ticks -= step;
      if (this.cooked === SMELT_TICKS_PER_ITEM) {
        this.cooked = 0;
        this.input = take(this.input!, 1);
        this.output = { name: product, count: (this.output?.count ?? 0) + 1 };
      }
    }
  }

  contents(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const stack of [this.input, this.fuel, this.output])
      if (stack) counts[stack.name] = (counts[stack.name] ?? 0) + stack.count;
    return counts;
  }
}

function take(stack: Stack, count: number): Stack | null {
  return stack.count > count ? { name: stack.name, count: stack.count - count } : null;
}

/** What the sim world's chests and furnaces hold, by cell; a container appears when it is first used. */
export class SimContainers {
  private readonly chests = new Map<string, Map<string, number>>();
  private readonly furnaces = new Map<string, SimFurnace>();

  chest(cell: Vec3Like): Map<string, number> {
    const key = blockKey(cell);
    let chest = this.chests.get(key);
    if (!chest) this.chests.set(key, (chest = new Map<string, number>()));
    return chest;
  }

  furnace(cell: Vec3Like, now: number): SimFurnace {
    const key = blockKey(cell);
    let furnace = this.furnaces.get(key);
    if (!furnace) this.furnaces.set(key, (furnace = new SimFurnace(now)));
    furnace.advance(now);
    return furnace;
  }

  /** What the container at a cell holds, given the block standing there; null when it is no container. */
  contentsAt(cell: Vec3Like, block: string, now: number): Record<string, number> | null {
    if (block === FURNACE_BLOCK) return this.furnace(cell, now).contents();
    if (CHEST_BLOCKS.includes(block)) return Object.fromEntries(this.chest(cell));
    return null;
  }
}

/** How many slots a chest's contents fill, 64 to a stack. */
export function slotsUsed(chest: ReadonlyMap<string, number>): number {
  let slots = 0;
  for (const count of chest.values()) slots += Math.ceil(count / STACK);
  return slots;
}
