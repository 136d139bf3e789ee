import { type BodyPart, WorldError } from '../../contracts/world.js';
import type { BotContext } from './bot-context.js';
import type { Command } from './command-runner.js';
import { confirmInventory } from './confirm.js';

const ARMOR_SLOTS: ReadonlySet<BodyPart> = new Set(['head', 'torso', 'legs', 'feet']);

export function startEquip(context: BotContext, item: string, destination: BodyPart): Command {
  const { bot, serverTruth } = context;
  const found = bot.inventory.items().find((candidate) => candidate.name === item);
  if (!found) throw new WorldError('precondition_missing', `cannot equip ${item}: none in the inventory`);
  if (!serverTruth || !ARMOR_SLOTS.has(destination)) return { done: bot.equip(found, destination), cancel: () => {} };
  // mineflayer resolves once it sent the click; the armor counts as worn once
  // the server moved it out of the main inventory (what acceptance reads).
  const before = serverTruth.player(bot.username)?.inventory[item] ?? 0;
  const done = bot
    .equip(found, destination)
    .then(() =>
      confirmInventory(
        context,
        item,
        (count) => count < before,
        `fewer than ${before} ${item} (one worn on the ${destination})`,
      ),
    );
  return { done, cancel: () => {} };
}
