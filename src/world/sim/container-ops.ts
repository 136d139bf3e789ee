import { WorldError } from '../../contracts/world.js';
import { CHEST_SLOTS, checkContainer, checkSmelt, checkTransfer } from '../actuator-rules.js';
import { cellText } from './cells.js';
import { CRAFT_MS } from './constants.js';
import { slotsUsed, type SimContainers } from './containers.js';
import type { Operation } from './operation.js';
import { requireReach } from './requirements.js';
import type { SimParts } from './sim-parts.js';
import type { Cell } from './terrain.js';

/** How often a waiting smelt looks into the furnace. */
const FURNACE_POLL_MS = 1000;

export function deposit(
  { grid, body }: SimParts,
  containers: SimContainers,
  op: Operation,
  cell: Cell,
  item: string,
  count: number,
): void {
  checkContainer('deposit', cellText(cell), grid.get(cell.x, cell.y, cell.z));
  checkTransfer('deposit', item, count, body.count(item));
  requireReach(body, 'deposit', cell);
  op.after(CRAFT_MS, () => {
    const chest = containers.chest(cell);
    const after = new Map(chest).set(item, (chest.get(item) ?? 0) + count);
    if (slotsUsed(after) > CHEST_SLOTS)
      throw new WorldError('guard_failed', `deposit: the chest at ${cellText(cell)} has no room for ${count} ${item}`);
    checkTransfer('deposit', item, count, body.count(item));
    body.takeItems(item, count);
    chest.set(item, (chest.get(item) ?? 0) + count);
    op.succeed();
  });
}

export function withdraw(
  { grid, body }: SimParts,
  containers: SimContainers,
  op: Operation,
  cell: Cell,
  item: string,
  count: number,
): void {
  checkContainer('withdraw', cellText(cell), grid.get(cell.x, cell.y, cell.z));
  checkTransfer('withdraw', item, count, containers.chest(cell).get(item) ?? 0);
  requireReach(body, 'withdraw', cell);
  op.after(CRAFT_MS, () => {
    const chest = containers.chest(cell);
    const left = (chest.get(item) ?? 0) - count;
    if (left < 0)
      throw new WorldError(
        'precondition_missing',
        `withdraw: the chest at ${cellText(cell)} no longer holds ${count} ${item}`,
      );
    if (left === 0) chest.delete(item);
    else chest.set(item, left);
    body.addItems(item, count);
    op.succeed();
  });
}

/**
 * Loads the furnace with the input and the fuel it takes, waits for the furnace (which runs on its
 * own, see SimFurnace) to have cooked them, and takes the output. What the furnace already holds of
 * the output, and of the input cooking, counts toward `count` (checkSmelt). An aborted smelt leaves
 * what it loaded in the furnace, still cooking, as a real one does.
 */
export function smelt(
  { clock, grid, body }: SimParts,
  containers: SimContainers,
  op: Operation,
  cell: Cell,
  input: string,
  count: number,
  fuel: string,
): void {
  checkContainer('smelt', cellText(cell), grid.get(cell.x, cell.y, cell.z));
  const furnace = containers.furnace(cell, clock.now());
  const { output, fuelCount } = checkSmelt(input, count, fuel, Object.fromEntries(body.items), furnace);
  requireReach(body, 'smelt', cell);
  if (furnace.input && furnace.input.name !== input)
    throw new WorldError(
      'guard_failed',
      `smelt: the furnace at ${cellText(cell)} is busy with ${furnace.input.count} ${furnace.input.name}`,
    );
  if (fuelCount > 0 && furnace.fuel && furnace.fuel.name !== fuel)
    throw new WorldError(
      'guard_failed',
      `smelt: the furnace at ${cellText(cell)} holds ${furnace.fuel.name} as fuel, not ${fuel}`,
    );
  if (furnace.output && furnace.output.name !== output)
    throw new WorldError(
      'guard_failed',
      `smelt: take the ${furnace.output.name} out of the furnace at ${cellText(cell)} first`,
    );
  op.after(CRAFT_MS, () => {
    furnace.advance(clock.now());
    const { load, fuelCount } = checkSmelt(input, count, fuel, Object.fromEntries(body.items), furnace);
    if (load > 0) {
      body.takeItems(input, load);
      body.takeItems(fuel, fuelCount);
      furnace.input = { name: input, count: (furnace.input?.count ?? 0) + load };
      if (fuelCount > 0) furnace.fuel = { name: fuel, count: (furnace.fuel?.count ?? 0) + fuelCount };
    }
    const poll = () => {
      furnace.advance(clock.now());
      if ((furnace.output?.count ?? 0) < count) {
        if (!furnace.input)
          throw new WorldError(
            'effects_unmet',
            `smelt: the furnace at ${cellText(cell)} has nothing left to cook and holds ${furnace.output?.count ?? 0} ${output} of the ${count} wanted`,
          );
        op.after(FURNACE_POLL_MS, poll);
        return;
      }
      body.addItems(output, furnace.output!.count);
      furnace.output = null;
      op.succeed();
    };
    op.after(FURNACE_POLL_MS, poll);
  });
}
