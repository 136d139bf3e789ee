import { WorldError } from '../contracts/world.js';
import { burnTicks, FUELS, fuelFor, smeltsInto } from './smelting.js';

/*
 * What both worlds refuse before an optional actuator runs, with the same
 * codes and words, so a capability meets the same failures in SimWorld as on
 * a real server.
 */

/** The longest chat message a server takes. */
export const MAX_CHAT_LENGTH = 256;

export function checkChat(message: string): void {
  if (message.trim() === '') throw new WorldError('guard_failed', 'cannot chat an empty message');
  if (message.length > MAX_CHAT_LENGTH) throw new WorldError('guard_failed', `cannot chat ${message.length} characters: a server takes at most ${MAX_CHAT_LENGTH}`);
  if (message.startsWith('/')) throw new WorldError('guard_failed', `"${message.split(' ')[0]}" is a command, not a chat message; chat says text`);
}

export function checkToss(item: string, count: number, held: number): void {
  if (!Number.isInteger(count) || count < 1) throw new WorldError('guard_failed', `cannot toss ${count} ${item}: give a whole number of at least 1`);
  if (held < count) throw new WorldError('precondition_missing', `cannot toss ${count} ${item}: the inventory holds ${held}`);
}

/** The blocks `deposit`/`withdraw` open, and the one `smelt` does. */
export const CHEST_BLOCKS: readonly string[] = ['chest', 'trapped_chest', 'barrel'];
export const FURNACE_BLOCK = 'furnace';
/** A single chest's slots. */
export const CHEST_SLOTS = 27;

export function checkContainer(command: 'deposit' | 'withdraw' | 'smelt', at: string, block: string | null): void {
  const wanted = command === 'smelt' ? [FURNACE_BLOCK] : CHEST_BLOCKS;
  if (block === null || !wanted.includes(block)) {
    throw new WorldError('precondition_missing', `${command}: the block at ${at} is ${block ?? 'not loaded'}, not a ${wanted.join(' or ')}; place one or give its position`);
  }
}

export function checkTransfer(command: 'deposit' | 'withdraw', item: string, count: number, available: number): void {
  if (!Number.isInteger(count) || count < 1) throw new WorldError('guard_failed', `cannot ${command} ${count} ${item}: give a whole number of at least 1`);
  if (available < count) {
    throw new WorldError('precondition_missing', `cannot ${command} ${count} ${item}: the ${command === 'deposit' ? 'inventory' : 'container'} holds ${available}`);
  }
}

/** What a furnace refuses before anything moves: an input it does not take, a fuel that does not burn, too little of either. */
export function checkSmelt(input: string, count: number, fuel: string, inventory: Readonly<Record<string, number>>): { output: string; fuelCount: number } {
  if (!Number.isInteger(count) || count < 1 || count > 64) throw new WorldError('guard_failed', `cannot smelt ${count} ${input}: give a whole number from 1 to 64`);
  const output = smeltsInto(input);
  if (output === null) throw new WorldError('guard_failed', `cannot smelt ${input}: a furnace does not take it`);
  if (burnTicks(fuel) === null) throw new WorldError('guard_failed', `cannot burn ${fuel}: it is not a fuel (e.g. ${FUELS.slice(0, 3).join(', ')})`);
  const fuelCount = fuelFor(fuel, count);
  const sameItem = fuel === input ? count : 0;
  if ((inventory[input] ?? 0) < count) throw new WorldError('precondition_missing', `cannot smelt ${count} ${input}: the inventory holds ${inventory[input] ?? 0}`);
  if ((inventory[fuel] ?? 0) - sameItem < fuelCount) {
    throw new WorldError('precondition_missing', `cannot smelt ${count} ${input}: it burns ${fuelCount} ${fuel} and the inventory holds ${(inventory[fuel] ?? 0) - sameItem}`);
  }
  return { output, fuelCount };
}
