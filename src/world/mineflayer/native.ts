import type { BotHandle } from './bot-handle.js';
import { type ActuatorOptions, WorldError, type WorldPort } from '../../contracts/world.js';

/**
 * The typed way into the raw mineflayer bot for a user's own actuator:
 *
 *   await ctx.actuate('fish', () => botActuator(ctx.world, 'fish', (bot: Bot) => bot.fish()));
 *
 * (`Bot` from mineflayer: the callback's annotation types the bot; see BotHandle.)
 *
 * It runs as an actuator command of the world (`native:fish` in the journal's
 * actions and the executor's timers), cancelled by the step's signal or a
 * disconnect. A world with no bot refuses it as `guard_failed`; declare
 * `actuators: ['native']` on the capability so that is refused at assembly.
 */
export function botActuator<B extends BotHandle = BotHandle>(
  world: WorldPort,
  command: string,
  act: (bot: B, signal: AbortSignal) => Promise<unknown>,
  options?: ActuatorOptions,
): Promise<void> {
  if (!world.native || world.kind !== 'mineflayer') {
    return Promise.reject(
      new WorldError(
        'guard_failed',
        `${command} needs a mineflayer bot, and the ${world.kind} world has none; run it against a real server`,
      ),
    );
  }
  return world.native(command, async (handle, signal) => void (await act(handle as B, signal)), options);
}
