import type { DroppedItem, LivingEntity, Vec3Like } from '../contracts/world.js';
import { isQueuedBot, type BotAccess } from './bot-access.js';
import { OperationError, wholeNumber } from './errors.js';

export interface ObserveQuery {
  /** The bot to look through; default the first. */
  bot?: string;
  /** Report the blocks within this many cells of the bot's feet along each axis (0 to 4; default 2: 125 cells). */
  radius?: number;
  /** Report the living entities and dropped items within this many blocks (1 to 64; default 16). */
  entityRadius?: number;
}

/** What a bot's world holds around it now, as the world's truth holds it (for a real server, the server's). */
export interface WorldView {
  bot: string;
  /** When it was observed, on the world's clock. */
  at: number;
  position: Vec3Like;
  health: number;
  food: number;
  inventory: Record<string, number>;
  heldItem: string | null;
  /** The time of day in ticks (0 sunrise, 6000 noon, 13000 night, 18000 midnight). */
  timeOfDay: number | null;
  /** The blocks around the bot other than air, by name; `radius` says how far it looked. */
  blocks: { radius: number; byName: Record<string, Vec3Like[]> };
  /** Mobs and players within `entityRadius`, with their health. */
  entities: LivingEntity[];
  /** Items lying on the ground within `entityRadius`. */
  drops: DroppedItem[];
  entityRadius: number;
}

const AIR = new Set(['air', 'cave_air', 'void_air']);

/**
 * One observation of the world's truth around a bot: its body, pack, the time, the blocks near it and the
 * entities near it. The bot's own view names the kinds of entity to ask about; the world's truth says which
 * are within reach, where each is and its health. Nothing moves.
 */
export async function observe(bots: BotAccess, query: ObserveQuery = {}): Promise<WorldView> {
  const radius = wholeNumber(query.radius, 'radius', { min: 0, max: 4, fallback: 2 });
  const entityRadius = wholeNumber(query.entityRadius, 'entityRadius', { min: 1, max: 64, fallback: 16 });
  const bot = await bots.get(query.bot);
  if (!bot)
    throw new OperationError(
      'unavailable',
      'no bot attached: this process was started without a world; start it with one (--world sim) to observe',
    );
  if (isQueuedBot(bot))
    throw new OperationError(
      'unavailable',
      `bot ${bot.id} is held by a fleet worker in another process, and this gateway has no world: GET /api/bots shows what its worker last reported`,
      { field: 'bot', see: 'listBots' },
    );
  const { world } = bot;
  const feet = cellOf(world.position());
  const names = [
    ...new Set(
      world
        .entities()
        .filter((e) => e.kind === 'hostile' || e.kind === 'passive' || e.kind === 'player')
        .map((e) => e.name),
    ),
  ];
  const seen = await world.observe({
    blocks: cube(feet, radius),
    time: true,
    drops: { radius: entityRadius },
    entities: { names, within: entityRadius },
  });
  const byName: Record<string, Vec3Like[]> = {};
  for (const [key, name] of Object.entries(seen.blocks)) {
    if (AIR.has(name)) continue;
    const [x = 0, y = 0, z = 0] = key.split(',').map(Number);
    (byName[name] ??= []).push({ x, y, z });
  }
  return {
    bot: bot.id,
    at: seen.at,
    position: seen.position,
    health: seen.health,
    food: seen.food,
    inventory: seen.inventory,
    heldItem: seen.heldItem,
    timeOfDay: seen.timeOfDay ?? null,
    blocks: { radius, byName },
    entities: seen.entities ?? [],
    drops: seen.drops ?? [],
    entityRadius,
  };
}

const cellOf = (p: Vec3Like): Vec3Like => ({ x: Math.floor(p.x), y: Math.floor(p.y), z: Math.floor(p.z) });

function cube(centre: Vec3Like, radius: number): Vec3Like[] {
  const cells: Vec3Like[] = [];
  for (let dx = -radius; dx <= radius; dx++)
    for (let dy = -radius; dy <= radius; dy++)
      for (let dz = -radius; dz <= radius; dz++) cells.push({ x: centre.x + dx, y: centre.y + dy, z: centre.z + dz });
  return cells;
}
