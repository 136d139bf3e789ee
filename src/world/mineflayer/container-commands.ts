import type { Block } from 'prismarine-block';
import { type Vec3Like, WorldError } from '../../contracts/world.js';
import { checkContainer, checkSmelt, checkTransfer, smeltOutput } from '../actuator-rules.js';
import { EYE_HEIGHT, REACH } from '../reach.js';
import { SMELT_TICKS_PER_ITEM } from '../smelting.js';
import { type BotContext, toVec3 } from './bot-context.js';
import type { Command } from './command-runner.js';
import { confirmInventory } from './confirm.js';
import { inventoryCounts } from './observe.js';
import { waitFor } from './wait-for.js';

/** Opening and loading a window, besides the cooking. */
const SMELT_SLACK_MS = 10_000;

const at = (p: Vec3Like) => `${Math.floor(p.x)},${Math.floor(p.y)},${Math.floor(p.z)}`;

function containerBlock(context: BotContext, command: 'deposit' | 'withdraw' | 'smelt', position: Vec3Like): Block {
  const { bot } = context;
  const block = bot.blockAt(toVec3(position));
  checkContainer(command, at(position), block?.name ?? null);
  const eyes = bot.entity.position.offset(0, EYE_HEIGHT, 0);
  const distance = eyes.distanceTo(block!.position.offset(0.5, 0.5, 0.5));
  if (distance > REACH)
    throw new WorldError(
      'precondition_missing',
      `${command}: ${at(position)} is ${distance.toFixed(1)} blocks away, reach is ${REACH}; navigate closer first`,
    );
  return block!;
}

function itemId(context: BotContext, command: string, item: string): number {
  const id = context.bot.registry.itemsByName[item]?.id;
  if (id === undefined)
    throw new WorldError('guard_failed', `${command}: "${item}" is not an item in ${context.bot.version}`);
  return id;
}

/** The count the pack holds before an action, as the server holds it when it can be asked. */
function packCount(context: BotContext, item: string): number {
  return context.serverTruth?.player(context.bot.username)?.inventory[item] ?? inventoryCounts(context.bot)[item] ?? 0;
}

/**
 * Opens the furnace, puts in the fuel the rules burn and the input, waits for the output (the window's
 * updates), takes it and closes. Done once the pack holds the output. What the furnace already holds of
 * the output, and of the input cooking, counts toward `count` (checkSmelt): a smelt cut short goes on.
 * Cancelling closes the window; what was loaded stays in the furnace and keeps cooking, as on any server.
 */
export function startSmelt(
  context: BotContext,
  position: Vec3Like,
  input: string,
  count: number,
  fuel: string,
): Command {
  const { bot, clock } = context;
  const block = containerBlock(context, 'smelt', position);
  const output = smeltOutput(input, count, fuel);
  const [inputId, fuelId] = [itemId(context, 'smelt', input), itemId(context, 'smelt', fuel)];
  const before = packCount(context, output);
  let window: Awaited<ReturnType<typeof bot.openFurnace>> | null = null;
  const done = (async () => {
    window = await bot.openFurnace(block);
    const [existing, cooking] = [window.outputItem(), window.inputItem()];
    if (existing && existing.name !== output)
      throw new WorldError(
        'guard_failed',
        `smelt: take the ${existing.name} out of the furnace at ${at(position)} first`,
      );
    if (cooking && cooking.name !== input)
      throw new WorldError(
        'guard_failed',
        `smelt: the furnace at ${at(position)} is busy with ${cooking.count} ${cooking.name}`,
      );
    const slot = (item: typeof existing) => (item ? { name: item.name, count: item.count } : null);
    const { load, fuelCount } = checkSmelt(input, count, fuel, inventoryCounts(bot), {
      input: slot(cooking),
      output: slot(existing),
    });
    if (fuelCount > 0) await window.putFuel(fuelId, null, fuelCount);
    if (load > 0) await window.putInput(inputId, null, load);
    const furnace = window;
    const cookMs = (count * SMELT_TICKS_PER_ITEM * 1000) / 20;
    await waitFor(
      clock,
      cookMs + SMELT_SLACK_MS,
      () => (furnace.outputItem()?.count ?? 0) >= count,
      (check) => {
        furnace.on('update', check);
        return () => furnace.removeListener('update', check);
      },
    ).catch(() => {
      throw new WorldError(
        'effects_unmet',
        `smelt: the furnace at ${at(position)} holds ${furnace.outputItem()?.count ?? 0} ${output} after ${cookMs + SMELT_SLACK_MS} ms, ${count} asked`,
      );
    });
    await furnace.takeOutput();
    furnace.close();
    window = null;
    await confirmInventory(
      context,
      output,
      (now) => now >= before + count,
      `at least ${before + count} ${output} after smelting ${count}`,
    );
  })();
  return { done, cancel: () => window?.close() };
}

/** Opens the chest, moves `count` of `item` in (`deposit`) or out (`withdraw`), closes; done once the pack shows it. */
export function startTransfer(
  context: BotContext,
  direction: 'deposit' | 'withdraw',
  position: Vec3Like,
  item: string,
  count: number,
): Command {
  const { bot } = context;
  const block = containerBlock(context, direction, position);
  const id = itemId(context, direction, item);
  if (direction === 'deposit') checkTransfer(direction, item, count, inventoryCounts(bot)[item] ?? 0);
  const before = packCount(context, item);
  let window: Awaited<ReturnType<typeof bot.openContainer>> | null = null;
  const done = (async () => {
    window = await bot.openContainer(block);
    if (direction === 'withdraw') checkTransfer(direction, item, count, window.containerCount(id, null));
    try {
      await (direction === 'deposit' ? window.deposit(id, null, count) : window.withdraw(id, null, count));
    } catch (error) {
      throw new WorldError(
        direction === 'deposit' ? 'guard_failed' : 'precondition_missing',
        `${direction}: ${count} ${item} at ${at(position)}: ${(error as Error).message}`,
      );
    } finally {
      window.close();
      window = null;
    }
    const expected = direction === 'deposit' ? before - count : before + count;
    await confirmInventory(
      context,
      item,
      (now) => (direction === 'deposit' ? now <= expected : now >= expected),
      `${direction === 'deposit' ? 'at most' : 'at least'} ${expected} ${item} after ${direction === 'deposit' ? 'storing' : 'taking'} ${count}`,
    );
  })();
  return { done, cancel: () => window?.close() };
}
