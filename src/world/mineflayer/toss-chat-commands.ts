import { WorldError } from '../../contracts/world.js';
import { checkChat, checkToss } from '../actuator-rules.js';
import type { BotContext } from './bot-context.js';
import type { Command } from './command-runner.js';
import { confirmInventory } from './confirm.js';
import { inventoryCounts } from './observe.js';
import { waitFor } from './wait-for.js';

/** Throws `count` of `item`; done once the pack (the server's, when it can be asked) holds that many fewer. */
export function startToss(context: BotContext, item: string, count: number): Command {
  const { bot } = context;
  const held = inventoryCounts(bot)[item] ?? 0;
  checkToss(item, count, held);
  const type = bot.registry.itemsByName[item]?.id;
  if (type === undefined) throw new WorldError('guard_failed', `cannot toss "${item}": not an item in ${bot.version}`);
  const before = context.serverTruth?.player(bot.username)?.inventory[item] ?? held;
  const done = (async () => {
    await bot.toss(type, null, count);
    await confirmInventory(
      context,
      item,
      (now) => now <= before - count,
      `at most ${before - count} ${item} after tossing ${count}`,
    );
  })();
  return { done, cancel: () => undefined };
}

/** Says `message`; done once the server has relayed it back (every player, the sender too, receives a chat line). */
export function startChat(context: BotContext, message: string): Command {
  const { bot, clock } = context;
  checkChat(message);
  let relayed = false;
  const heard = (line: string) => {
    if (line.includes(message)) relayed = true;
  };
  bot.on('messagestr', heard);
  const done = (async () => {
    try {
      bot.chat(message);
      await waitFor(
        clock,
        context.confirmTimeoutMs,
        () => relayed,
        (check) => {
          bot.on('messagestr', check);
          return () => bot.removeListener('messagestr', check);
        },
      ).catch(() => {
        throw new WorldError(
          'effects_unmet',
          `said "${message}" but the server did not relay it within ${context.confirmTimeoutMs} ms`,
        );
      });
    } finally {
      bot.removeListener('messagestr', heard);
    }
  })();
  return { done, cancel: () => bot.removeListener('messagestr', heard) };
}
