import { type Recipe, type Vec3Like, WorldError } from '../../contracts/world.js';
import { missingIngredients } from '../recipes.js';
import type { Body } from './body.js';
import { cellText, toCell } from './cells.js';
import { EYE_HEIGHT, REACH, TABLE_RANGE } from './constants.js';
import { findBlocks } from './find-blocks.js';
import type { BlockGrid } from './grid.js';
import type { Cell, Terrain } from './terrain.js';

/** Preconditions shared by actuators; each throws a WorldError that says what to do about it. */

export function requireReach(body: Body, command: string, cell: Cell): void {
  const { feet } = body;
  const distance = Math.sqrt(
    (cell.x + 0.5 - feet.x) ** 2 + (cell.y + 0.5 - (feet.y + EYE_HEIGHT)) ** 2 + (cell.z + 0.5 - feet.z) ** 2,
  );
  if (distance > REACH) {
    throw new WorldError(
      'precondition_missing',
      `${command}: ${cellText(cell)} is ${distance.toFixed(1)} blocks away, reach is ${REACH}; navigate closer first`,
    );
  }
}

export function requireTable(grid: BlockGrid, body: Body, item: string, table: Vec3Like | null): void {
  if (table) {
    const cell = toCell(table);
    if (grid.get(cell.x, cell.y, cell.z) !== 'crafting_table') {
      throw new WorldError(
        'precondition_missing',
        `craft: no crafting_table at ${cellText(cell)}; place one or pass its position`,
      );
    }
    requireReach(body, 'craft', cell);
    return;
  }
  if (findBlocks(grid, body, { names: ['crafting_table'], maxDistance: TABLE_RANGE, count: 1 }).length === 0) {
    throw new WorldError(
      'precondition_missing',
      `craft: ${item} needs a crafting_table within ${TABLE_RANGE} blocks; place one or go to one`,
    );
  }
}

export function requireIngredients(body: Body, recipe: Recipe, times: number): void {
  const missing = missingIngredients(recipe, times, Object.fromEntries(body.items));
  const list = Object.entries(missing).map(([name, count]) => `${count} ${name}`);
  if (list.length > 0)
    throw new WorldError('precondition_missing', `craft: ${times}x ${recipe.item} is missing ${list.join(', ')}`);
}

export function hasSolidNeighbour(terrain: Terrain, cell: Cell): boolean {
  const { x, y, z } = cell;
  return (
    terrain.solid(x, y - 1, z) ||
    terrain.solid(x, y + 1, z) ||
    terrain.solid(x + 1, y, z) ||
    terrain.solid(x - 1, y, z) ||
    terrain.solid(x, y, z + 1) ||
    terrain.solid(x, y, z - 1)
  );
}
