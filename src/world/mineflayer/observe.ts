import type { Bot } from 'mineflayer';
import {
  type BlockInfo,
  type EntityInfo,
  type EntityKind,
  type LivingEntity,
  type Observation,
  type ObservationQuery,
  type Vec3Like,
  blockKey,
} from '../../contracts/world.js';
import { entitiesMatching } from '../actuator-rules.js';
import { stateAt } from './block-state.js';
import { type BotContext, toVec3 } from './bot-context.js';
import { entityInfo, isSpawned, kindOf } from './entities.js';
import { dropsWithin } from '../drops.js';
import { findBlocksInChunks } from './find-blocks.js';
import { botFooting } from './goals.js';

/** Reads of the bot's client-side view of the world, and observe(), which prefers the server's. */

export function botPosition(bot: Bot): Vec3Like {
  const { x, y, z } = bot.entity.position;
  return { x, y, z };
}

export function inventoryCounts(bot: Bot): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of bot.inventory.items()) counts[item.name] = (counts[item.name] ?? 0) + item.count;
  return counts;
}

export function blockInfo(bot: Bot, position: Vec3Like): BlockInfo | null {
  const block = bot.blockAt(toVec3(position));
  if (!block) return null;
  return {
    name: block.name,
    position: { x: block.position.x, y: block.position.y, z: block.position.z },
    diggable: block.diggable,
  };
}

/**
 * The entities the bot sees, itself apart; with `kinds`, only those, the others never built (in a crowd of 150 the
 * safety monitor's look each tick built 149 players it skips: 2 to 3 % of a worker's busy time, issue 34 §2).
 */
export function visibleEntities(bot: Bot, kinds?: readonly EntityKind[]): EntityInfo[] {
  const seen: EntityInfo[] = [];
  for (const entity of Object.values(bot.entities)) {
    if (entity === bot.entity || !isSpawned(entity)) continue;
    if (kinds && !kinds.includes(kindOf(entity))) continue;
    seen.push(entityInfo(entity));
  }
  return seen;
}

export async function observe(context: BotContext, query: ObservationQuery): Promise<Observation> {
  const { bot, serverTruth } = context;
  const server = serverTruth?.player(bot.username) ?? null;
  const blocks: Record<string, string> = {};
  for (const position of query.blocks ?? []) {
    blocks[blockKey(position)] = serverTruth
      ? await serverTruth.blockAt(position)
      : (bot.blockAt(toVec3(position))?.name ?? 'unknown');
  }
  const found = query.find ? await findConfirmed(context, query.find) : undefined;
  const position = server?.position ?? botPosition(bot);
  return {
    at: context.clock.now(),
    position,
    // Whether it is on the ground is the client's physics (which tells the server so); the ground is under the feet
    // the observation reports, read from the collision shapes of the blocks the server sent.
    footing: botFooting(bot, position),
    health: server?.health ?? bot.health,
    food: server?.food ?? bot.food,
    inventory: server?.inventory ?? inventoryCounts(bot),
    heldItem: bot.heldItem?.name ?? null,
    blocks,
    // Dropped items as the bot's client sees them: the server announces each spawn and each pick-up to it.
    ...(query.drops
      ? { drops: dropsWithin(visibleEntities(bot), query.drops.around ?? botPosition(bot), query.drops.radius) }
      : {}),
    ...(found !== undefined ? { found } : {}),
    ...(query.entities ? { entities: await livingEntities(context, query.entities) } : {}),
    ...(query.time ? { timeOfDay: context.serverTruth?.timeOfDay?.() ?? bot.time.timeOfDay } : {}),
    ...(query.states
      ? {
          states: Object.fromEntries(
            await Promise.all(query.states.map(async (p) => [blockKey(p), await stateAt(context, p)] as const)),
          ),
        }
      : {}),
    ...(query.containers || query.find?.contents
      ? {
          containers: await containersAt(context, [
            ...(query.containers ?? []),
            ...(found && query.find?.contents ? [found] : []),
          ]),
        }
      : {}),
  };
}

/**
 * What the containers hold, as the server holds it. A server verbtree cannot ask (any but the embedded
 * one) leaves them out: a client learns a container's contents only by opening it, and an observation
 * does not act, so an expectation on a container there is reported "not observed", never guessed.
 */
async function containersAt(
  context: BotContext,
  cells: readonly Vec3Like[],
): Promise<Record<string, Record<string, number> | null>> {
  const truth = context.serverTruth;
  if (!truth?.containerAt) return {};
  const seen: Record<string, Record<string, number> | null> = {};
  for (const cell of cells) seen[blockKey(cell)] = await truth.containerAt(cell);
  return seen;
}

/**
 * The living entities asked for, as the server holds them where it can be asked; otherwise as the client
 * knows them, which is what the server announced to it (spawns, moves, and removals at death).
 */
async function livingEntities(
  context: BotContext,
  query: NonNullable<ObservationQuery['entities']>,
): Promise<LivingEntity[]> {
  const at = context.serverTruth?.player(context.bot.username)?.position ?? botPosition(context.bot);
  if (context.serverTruth?.livingEntities) return context.serverTruth.livingEntities(query, at);
  const health = (id: number) => (context.bot.entities[id] as { health?: number } | undefined)?.health ?? null;
  return entitiesMatching(visibleEntities(context.bot), query, at).map(({ id, name, position }) => ({
    id,
    name,
    position,
    health: health(id),
  }));
}

/** How many of the client's nearest candidates are checked against the server before saying none is there. */
const FIND_CANDIDATES = 8;

/**
 * The nearest block in the open that the client's view of the world shows, confirmed by the server's
 * truth where there is one to ask: a block the client still shows but the server no longer holds does
 * not count.
 */
async function findConfirmed(
  context: BotContext,
  find: NonNullable<ObservationQuery['find']>,
): Promise<Vec3Like | null> {
  const { bot, serverTruth } = context;
  const candidates = findBlocksInChunks(bot, {
    names: find.names,
    maxDistance: find.within,
    count: FIND_CANDIDATES,
    exposed: true,
  });
  for (const cell of candidates) {
    if (!serverTruth || find.names.includes(await serverTruth.blockAt(cell))) return cell;
  }
  return null;
}
