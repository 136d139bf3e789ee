import type { Bot } from 'mineflayer';
import type { BotContext } from './bot-context.js';
import { inventoryCounts } from './observe.js';

/**
 * A click in a window is predicted by the client at once; the server then sends back every slot the click changed
 * (the embedded server echoes each one). Under load those echoes arrive after the craft is confirmed, each one the
 * state after *its* click: read then, the pack can seem to hold no logs (the first click picked the stack up), and the
 * next craft finds no recipe or clicks on slots that are not what it thinks. So a craft ends only once the pack has
 * settled: no slot update for SETTLE_QUIET_MS since its last click and, with a server to ask, the same counts as the
 * server holds.
 */
const SETTLE_QUIET_MS = 150;
const POLL_MS = 25;

/** When each bot last heard of a slot change from its server, on its context's clock. */
const lastSlotUpdate = new WeakMap<Bot, number>();

/** Starts noting the bot's slot updates (once per bot): the settle waits until they stop. */
export function watchSlotUpdates(context: BotContext): void {
  const { bot, clock } = context;
  if (lastSlotUpdate.has(bot)) return;
  lastSlotUpdate.set(bot, Number.NEGATIVE_INFINITY);
  const heard = () => lastSlotUpdate.set(bot, clock.now());
  // The packet events of mineflayer's client are untyped; these are the two that change slots.
  const client = bot._client as unknown as { on(event: string, listener: () => void): void };
  client.on('set_slot', heard);
  client.on('window_items', heard);
}

/**
 * Waits until the client's pack agrees with the server's and, when `lastClickAt` is given, no slot update has come
 * for SETTLE_QUIET_MS since then. Past the confirm timeout it returns anyway: the caller reads what there is, and
 * whatever it then does is confirmed against the server as always.
 */
export async function inventorySettled(context: BotContext, lastClickAt: number | null): Promise<void> {
  const { clock, confirmTimeoutMs } = context;
  const deadline = clock.now() + confirmTimeoutMs;
  while (!settled(context, lastClickAt) && clock.now() < deadline) {
    await new Promise<void>((resolve) => clock.setTimeout(resolve, POLL_MS));
  }
}

function settled(context: BotContext, lastClickAt: number | null): boolean {
  const { bot, clock, serverTruth } = context;
  if (lastClickAt !== null) {
    const quietSince = Math.max(lastClickAt, lastSlotUpdate.get(bot) ?? Number.NEGATIVE_INFINITY);
    if (clock.now() - quietSince < SETTLE_QUIET_MS) return false;
  }
  const server = serverTruth?.player(bot.username)?.inventory;
  return !server || sameCounts(inventoryCounts(bot), server);
}

function sameCounts(a: Record<string, number>, b: Record<string, number>): boolean {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].every((name) => (a[name] ?? 0) === (b[name] ?? 0));
}
