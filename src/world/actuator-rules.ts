import { WorldError } from '../contracts/world.js';

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
