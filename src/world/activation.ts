import { type BlockState, WorldError } from '../contracts/world.js';
import { REACH } from './reach.js';

/*
 * What using a block does (a right click, `activate`), the same in both
 * worlds: the embedded server's plugin and SimWorld apply these rules, and
 * the activate_block capability predicts its effect with them.
 */

/** A player's reach for using a block, from the eyes (as for placing one). */
export const ACTIVATE_REACH = REACH;
/** What `activate` takes in SimWorld: one right click and the server's answer. */
export const ACTIVATE_MS = 250;

/** Soil a hoe turns into farmland. */
export const TILLABLE: readonly string[] = ['dirt', 'grass_block', 'dirt_path'];
const FARMLAND = 'farmland';

const OPENS = /(_door|_trapdoor|_fence_gate)$/;

/** Doors, trapdoors and fence gates a hand opens; iron ones only redstone moves. */
export function isOpenable(name: string): boolean {
  return OPENS.test(name) && !name.startsWith('iron_');
}

export function isDoor(name: string): boolean {
  return name.endsWith('_door');
}

const isHoe = (item: string | null | undefined) => item?.endsWith('_hoe') === true;

/** The property using a block flips, if any: what a BlockState reports for that block. */
export function toggledProperty(name: string): 'open' | 'powered' | null {
  if (OPENS.test(name)) return 'open';
  if (name === 'lever') return 'powered';
  return null;
}

/** A block as both worlds report it: its toggled property, false unless set. */
export function blockState(name: string, properties: Readonly<Record<string, boolean>> = {}): BlockState {
  const key = toggledProperty(name);
  return { name, properties: key ? { [key]: properties[key] === true } : {} };
}

/**
 * The block's state after a right click holding `item` (null: whatever the hand holds does not matter), or
 * a refusal naming why nothing would happen. `above` is the block on top, for tilling.
 */
export function activationOf(
  at: string,
  block: BlockState | null,
  item: string | null,
  above: string | null,
): BlockState {
  if (!block)
    throw new WorldError('precondition_missing', `activate: the block at ${at} is not loaded; walk closer first`);
  const { name } = block;
  if (isHoe(item) && TILLABLE.includes(name)) {
    if (above !== 'air')
      throw new WorldError(
        'precondition_missing',
        `activate: the ${name} at ${at} has ${above ?? 'an unknown block'} on it; a hoe tills only soil open above`,
      );
    return blockState(FARMLAND);
  }
  if (name === 'lever') return blockState(name, { powered: !block.properties.powered });
  if (isOpenable(name)) return blockState(name, { open: !block.properties.open });
  if (toggledProperty(name) === 'open')
    throw new WorldError('guard_failed', `activate: the ${name} at ${at} opens only by redstone, not by hand`);
  const hint = TILLABLE.includes(name) ? '; hold a hoe (item) to till it' : '';
  throw new WorldError(
    'guard_failed',
    `activate: using the ${name} at ${at} does nothing here (doors, trapdoors, fence gates and levers toggle; a hoe tills ${TILLABLE.join(', ')})${hint}`,
  );
}

/** `a` is the block `b` names, with every property `b` gives. */
export function sameBlockState(a: BlockState, b: BlockState): boolean {
  return a.name === b.name && Object.entries(b.properties).every(([key, value]) => a.properties[key] === value);
}

/** An item to hold while using, checked against the pack before anything moves. */
export function checkActivateItem(item: string | undefined, held: number): void {
  if (item !== undefined && held < 1)
    throw new WorldError('precondition_missing', `activate: holding ${item} was asked and the inventory holds none`);
}

/** A door's other half: the cell above when it holds the same door, else the one below. */
export function doorPartner<T extends { y: number }>(
  cell: T,
  name: string,
  nameAt: (y: number) => string | null,
): T | null {
  if (!isDoor(name)) return null;
  if (nameAt(cell.y + 1) === name) return { ...cell, y: cell.y + 1 };
  if (nameAt(cell.y - 1) === name) return { ...cell, y: cell.y - 1 };
  return null;
}

/**
 * Blocks a right click uses rather than builds on: the server opens a table, furnace or chest clicked (as the game
 * does for a player not sneaking), sleeps in a bed, toggles a door or lever, and places nothing, so neither a face to
 * place against nor ground for a spot. Seen on generated terrain: a furnace put on top of the crafting table just
 * placed failed so (mineflayer waited 5 s for a block that never came), and the step was retried.
 */
const USED_ON_CLICK: ReadonlySet<string> = new Set([
  'crafting_table',
  'furnace',
  'blast_furnace',
  'smoker',
  'chest',
  'trapped_chest',
  'barrel',
  'lever',
]);

export function isUsedOnClick(name: string): boolean {
  return USED_ON_CLICK.has(name) || name.endsWith('_bed') || isOpenable(name);
}
