import { ATTACK_COOLDOWN_MS, checkAttack } from '../actuator-rules.js';
import type { BotContext } from './bot-context.js';
import type { Command } from './command-runner.js';
import { entityInfo, isSpawned } from './entities.js';
import { botPosition } from './observe.js';

/** One hit on the entity (mineflayer's attack: a swing and a use_entity packet), then the swing's cooldown. */
export function startAttack(context: BotContext, entityId: number): Command {
  const { bot, clock } = context;
  const entity = bot.entities[entityId];
  checkAttack(entityId, entity && isSpawned(entity) ? entityInfo(entity) : undefined, botPosition(bot));
  bot.attack(entity!);
  let timer: ReturnType<typeof clock.setTimeout> | undefined;
  const done = new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, ATTACK_COOLDOWN_MS)));
  // The hit has landed; cancelling only cuts the cooldown short (the runner ends the command as aborted).
  return { done, cancel: () => timer !== undefined && clock.clearTimeout(timer) };
}
