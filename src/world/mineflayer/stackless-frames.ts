import type { Bot } from 'mineflayer';
import { splitWithoutStacks, type Splitter } from '../protocol/stackless-frames.js';

/** Makes `bot`'s splitter take no stack traces for the partial reads it throws and catches; once per bot. */
export function splitFramesWithoutStacks(bot: Bot): void {
  splitWithoutStacks((bot._client as unknown as { splitter: Splitter }).splitter);
}
