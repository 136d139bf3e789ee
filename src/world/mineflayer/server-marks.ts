import type { Bot } from 'mineflayer';
import { parseServerMark, SERVER_MARK_CHANNEL, type ServerMark } from '../server-mark.js';

/** What each bot's server said of itself on verbtree's channel, kept from the bot's creation on. */
const said = new WeakMap<object, Pick<ServerMark, 'server' | 'savedUpTo'>>();

/**
 * Listens for the server's mark (SERVER_MARK_CHANNEL) from the bot's first packets on: the embedded world sends it as
 * the player logs in, before the bot has spawned, so it is listened for where the bot is made.
 */
export function listenForServerMark(bot: Pick<Bot, '_client'>): void {
  bot._client.on('custom_payload', (packet: { channel?: string; data?: Buffer }) => {
    if (packet.channel !== SERVER_MARK_CHANNEL || !packet.data) return;
    const mark = parseServerMark(packet.data);
    if (mark) said.set(bot, mark);
  });
}

/** The bot's server as its session knows it: what the server said of itself, and the world's age last sent. */
export function serverMarkOf(bot: Pick<Bot, 'time'>): ServerMark {
  const mark = said.get(bot);
  const age = (bot.time as { age?: number | null } | undefined)?.age;
  return {
    server: mark?.server ?? null,
    savedUpTo: mark?.savedUpTo ?? null,
    age: typeof age === 'number' ? age : null,
  };
}
