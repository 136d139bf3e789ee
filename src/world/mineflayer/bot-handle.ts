/**
 * What verbtree's public declarations say of a mineflayer bot. A mineflayer
 * `Bot` is one. It is structural on purpose: naming mineflayer's `Bot` in
 * `verbtree/worlds` would pull mineflayer's dependencies' typings into every
 * consumer, and those fail a compile with `skipLibCheck: false` (protodef,
 * prismarine-chunk, … ship invalid declarations). `MineflayerWorld<B>` keeps the
 * type of the bot it was given; for a world verbtree connected, `botOf`
 * (bot-of.ts, exported by `verbtree/mineflayer`, which names mineflayer's
 * types) gives mineflayer's `Bot`. This file must not import mineflayer.
 */
export interface BotHandle {
  readonly username: string;
  quit(reason?: string): void;
}
