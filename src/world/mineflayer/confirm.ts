import { type Vec3Like, WorldError } from '../../contracts/world.js';
import { type BotContext, toVec3 } from './bot-context.js';
import { botPosition, inventoryCounts } from './observe.js';

/** The client predicts effects before the server applies them; these wait for the server (or client) to show them. */

const POLL_MS = 25;

export async function confirmBlock(
  context: BotContext,
  position: Vec3Like,
  ok: (name: string) => boolean,
  expectation: string,
): Promise<void> {
  const { bot, serverTruth: truth } = context;
  const read = truth
    ? () => truth.blockAt(position)
    : () => Promise.resolve(bot.blockAt(toVec3(position))?.name ?? 'unknown');
  await confirmRead(
    context,
    read,
    ok,
    (last) => `expected ${expectation} but the ${truth ? 'server' : 'client'} shows ${last}`,
  );
}

/** Reads until `ok` holds, or fails effects_unmet with what was last read once the confirm timeout passes. */
export async function confirmRead<T>(
  context: BotContext,
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  unmet: (last: T) => string,
): Promise<void> {
  let last = await read();
  if (ok(last)) return;
  const deadline = context.clock.now() + context.confirmTimeoutMs;
  while (context.clock.now() < deadline) {
    await sleep(context, POLL_MS);
    last = await read();
    if (ok(last)) return;
  }
  throw new WorldError('effects_unmet', unmet(last));
}

export async function confirmInventory(
  context: BotContext,
  item: string,
  ok: (count: number) => boolean,
  expectation: string,
): Promise<void> {
  const { bot, clock, serverTruth } = context;
  // With a server to ask, only the server counts: a player it does not know (yet) confirms nothing.
  const read = (): number | null => {
    const inventory = serverTruth ? serverTruth.player(bot.username)?.inventory : inventoryCounts(bot);
    return inventory ? (inventory[item] ?? 0) : null;
  };
  const deadline = clock.now() + context.confirmTimeoutMs;
  for (let count = read(); count === null || !ok(count); count = read()) {
    if (clock.now() >= deadline) {
      const shown = count === null ? 'no such player' : String(count);
      throw new WorldError(
        'effects_unmet',
        `expected ${expectation} in the inventory but the ${serverTruth ? 'server' : 'client'} shows ${shown}`,
      );
    }
    await sleep(context, POLL_MS);
  }
}

/**
 * The server applies the bot's moves a tick or more after the client made
 * them (longer with many bots on one server), and acceptance reads the
 * server's position: wait until it stands in the client's cell. After the
 * confirm timeout, acceptance judges whatever the server shows.
 */
export async function serverCaughtUp(context: BotContext): Promise<void> {
  const { bot, clock, serverTruth: truth } = context;
  if (!truth) return;
  // The same cell and the same height: a bot that landed on farmland (4.9375) is not yet there on a server that still
  // has it mid-step at 5.2.
  const same = (a: Vec3Like, b: Vec3Like) =>
    Math.floor(a.x) === Math.floor(b.x) && Math.floor(a.z) === Math.floor(b.z) && Math.abs(a.y - b.y) < 1e-3;
  const deadline = clock.now() + context.confirmTimeoutMs;
  while (clock.now() < deadline) {
    const server = truth.player(bot.username);
    if (!server || same(server.position, botPosition(bot))) return;
    await sleep(context, POLL_MS);
  }
}

function sleep(context: BotContext, ms: number): Promise<void> {
  return new Promise((resolve) => context.clock.setTimeout(resolve, ms));
}
