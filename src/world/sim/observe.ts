import {
  blockKey,
  type BlockState,
  type Observation,
  type ObservationQuery,
  type Vec3Like,
} from '../../contracts/world.js';
import { dropsWithin } from '../drops.js';
import { footingOf } from '../stands-on.js';
import { toCell } from './cells.js';
import type { SimContainers } from './containers.js';
import type { DayClock } from './day-clock.js';
import { findBlocks } from './find-blocks.js';
import type { SimParts } from './sim-parts.js';

/** A snapshot of the sim world as `query` asks for it: what SimWorld.observe returns. */
export function observeSim(
  parts: SimParts,
  day: DayClock,
  containers: SimContainers,
  query: ObservationQuery | undefined,
): Observation {
  const { grid, body, entities, clock, terrain, locomotion } = parts;
  const blocks: Record<string, string> = {};
  for (const position of query?.blocks ?? [])
    blocks[blockKey(position)] = grid.get(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z));
  const { feet } = body;
  const found = query?.find
    ? (findBlocks(grid, body, {
        names: query.find.names,
        maxDistance: query.find.within,
        count: 1,
        exposed: true,
      })[0] ?? null)
    : undefined;
  const containerCells = [...(query?.containers ?? []), ...(found && query?.find?.contents ? [found] : [])];
  const now = clock.now();
  const contents = (cells: readonly Vec3Like[]) =>
    Object.fromEntries(
      cells.map((position) => {
        const cell = toCell(position);
        return [blockKey(cell), containers.contentsAt(cell, grid.get(cell.x, cell.y, cell.z), now)];
      }),
    );
  const state = (p: Vec3Like): BlockState => grid.state(Math.floor(p.x), Math.floor(p.y), Math.floor(p.z));
  return {
    at: now,
    position: { x: feet.x, y: feet.y, z: feet.z },
    footing: footingOf(feet, !locomotion.airborne(), terrain.topsAt),
    health: body.health,
    food: body.food,
    inventory: Object.fromEntries(body.items),
    heldItem: body.held,
    blocks,
    ...(query?.drops ? { drops: dropsWithin(entities.list(), query.drops.around ?? feet, query.drops.radius) } : {}),
    ...(query?.containers || query?.find?.contents ? { containers: contents(containerCells) } : {}),
    ...(found !== undefined ? { found } : {}),
    ...(query?.entities ? { entities: entities.living(query.entities, feet) } : {}),
    ...(query?.time ? { timeOfDay: day.now() } : {}),
    ...(query?.states ? { states: Object.fromEntries(query.states.map((p) => [blockKey(p), state(p)])) } : {}),
  };
}
