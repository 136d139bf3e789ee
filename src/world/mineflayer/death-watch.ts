import type { Bot } from 'mineflayer';
import type { Death } from '../../contracts/world.js';
import type { CommandRunner } from './command-runner.js';

interface DamageEvent {
  entityId: number;
  /** The entity that caused the damage, plus one (0: none, a fall or a hazard). */
  sourceCauseId: number;
}

/**
 * A real bot's deaths, as the world's `died` (issue 30): mineflayer's `death` (its health read 0, which makes it ask to
 * respawn at once) stops every command running and refuses new ones until its `spawn` after the respawn. The death
 * names the health before the killing blow and, when the server said who dealt that blow (its `damage_event`, sent
 * just before the health in vanilla and on the embedded server), that entity's name; never an earlier attacker's.
 */
export function watchDeaths(bot: Bot, runner: CommandRunner, died: (death: Death) => void): void {
  let healthBefore = bot.health;
  let cause: string | undefined;
  bot.on('health', () => {
    if (bot.health <= 0) return;
    // The damage this health follows was not lethal: a later death is another's (a fall, the server's command).
    healthBefore = bot.health;
    cause = undefined;
  });
  bot._client.on('damage_event', (packet: DamageEvent) => {
    if (packet.entityId !== bot.entity?.id) return;
    const by = packet.sourceCauseId > 0 ? bot.entities[packet.sourceCauseId - 1] : undefined;
    cause = by?.name;
  });
  bot.on('death', () => {
    const { x, y, z } = bot.entity.position;
    const where = `${Math.floor(x)},${Math.floor(y)},${Math.floor(z)}`;
    runner.die(`the bot died at ${where}${cause ? ` (${cause})` : ''}`);
    died({ healthBefore, ...(cause ? { cause } : {}), position: { x, y, z } });
    cause = undefined;
  });
  bot.on('spawn', () => runner.revive());
}
