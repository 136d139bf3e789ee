import { WorldError } from '../../contracts/world.js';
import type { BotContext } from './bot-context.js';
import type { Command } from './command-runner.js';
import { waitFor } from './wait-for.js';

/** Beyond the confirm timeout, the time eating itself takes. */
const EATING_MS = 2000;

export function startConsume(context: BotContext, item: string): Command {
  const { bot } = context;
  const found = bot.inventory.items().find((candidate) => candidate.name === item);
  if (!found) throw new WorldError('precondition_missing', `cannot eat ${item}: none in the inventory`);
  if (bot.food >= 20) throw new WorldError('precondition_missing', `cannot eat ${item}: food is already full (20)`);
  const before = bot.food;
  const done = (async () => {
    await bot.equip(found, 'hand');
    // mineflayer's consume can resolve early (a held-item update ends its
    // wait), so the meal counts only once the server raised food.
    await bot.consume().catch(() => {});
    await waitFor(
      context.clock,
      context.confirmTimeoutMs + EATING_MS,
      () => bot.food > before,
      (ready) => {
        bot.on('health', ready);
        return () => bot.removeListener('health', ready);
      },
    ).catch(() => {
      throw new WorldError('effects_unmet', `ate ${item} but the server did not raise food above ${before}`);
    });
  })();
  return { done, cancel: () => bot.deactivateItem() };
}
