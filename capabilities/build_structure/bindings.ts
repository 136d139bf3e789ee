import {
  blockKey,
  isReplaceable,
  occupiedByBot,
  type RunContext,
  type TreeBindings,
  type Vec3Like,
  withinReach,
  WorldError,
} from 'verbtree';
import { type PlannedBlock, describePosition, plannedBlocks } from './plan.js';
import type { BuildStructureArgs } from './schema.js';

/** Walk this close to a block that is out of reach: inside reach from any side, short of the cell itself. */
const APPROACH_RANGE = 3;
/**
 * Free cells tried when the bot stands where a block goes; the path detector stops the step after three no-paths
 * anyway.
 */
const STEP_ASIDE_TRIES = 3;

type Ctx = RunContext<BuildStructureArgs>;

const feetCell = (p: Vec3Like): Vec3Like => ({ x: Math.floor(p.x), y: Math.floor(p.y), z: Math.floor(p.z) });

/**
 * Named blueprints are drawn around the bot standing at the origin (shelter_3x3 seals it in); custom ones are
 * approached block by block.
 */
function station(args: BuildStructureArgs): Vec3Like | null {
  return typeof args.blueprint === 'string' ? args.origin : null;
}

function inPlace(ctx: Ctx, block: PlannedBlock): boolean {
  return ctx.world.blockAt(block.position)?.name === block.block;
}

/**
 * Cells next to the bot where it can stand and blocks no missing blueprint cell (feet or head), nearest to `target`
 * first.
 */
function asideCells(ctx: Ctx, planned: readonly PlannedBlock[], target: Vec3Like): Vec3Like[] {
  const missing = new Set(planned.filter((block) => !inPlace(ctx, block)).map((block) => blockKey(block.position)));
  const open = (cell: Vec3Like) =>
    isReplaceable(ctx.world.blockAt(cell)?.name ?? 'unknown') && !missing.has(blockKey(cell));
  const standable = (cell: Vec3Like) =>
    open(cell) &&
    open({ ...cell, y: cell.y + 1 }) &&
    !isReplaceable(ctx.world.blockAt({ ...cell, y: cell.y - 1 })?.name ?? 'air');
  const feet = feetCell(ctx.world.position());
  const cells: Vec3Like[] = [];
  for (let dx = -2; dx <= 2; dx++) {
    for (let dz = -2; dz <= 2; dz++) {
      const cell = { x: feet.x + dx, y: feet.y, z: feet.z + dz };
      if ((dx !== 0 || dz !== 0) && standable(cell)) cells.push(cell);
    }
  }
  const distance = (cell: Vec3Like) => Math.hypot(cell.x - target.x, cell.z - target.z);
  return cells.sort((a, b) => distance(a) - distance(b)).slice(0, STEP_ASIDE_TRIES);
}

/** The bot stands where `block` goes: walk to a nearby cell that no missing block needs. */
async function stepAside(ctx: Ctx, planned: readonly PlannedBlock[], block: PlannedBlock): Promise<void> {
  let lastError: unknown;
  for (const cell of asideCells(ctx, planned, block.position)) {
    try {
      await ctx.actuate('goto', () => ctx.world.goto({ kind: 'block', ...cell }, { signal: ctx.signal }));
      return;
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      lastError = error;
    }
  }
  throw (
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the last caught error as it was
    lastError ??
    new WorldError(
      'guard_failed',
      `build_structure: the bot stands in ${describePosition(block.position)} and no cell beside it is free of the blueprint`,
    )
  );
}

export const buildStructureBindings: TreeBindings<BuildStructureArgs> = {
  conditions: {
    build_structure_at_station: ({ world, args }) => {
      const at = station(args);
      return at === null || blockKey(feetCell(world.position())) === blockKey(at);
    },
  },
  actions: {
    build_structure_take_station: (ctx) => {
      const at = station(ctx.args)!;
      return ctx.actuate('goto', () =>
        ctx.world.goto({ kind: 'block', x: at.x, y: at.y, z: at.z }, { signal: ctx.signal }),
      );
    },
    /**
     * Places every blueprint block not yet in place, bottom layer first, walking within reach
     * when needed and never into a cell still to fill. Blocks in place are skipped, so a re-run
     * resumes. Progress: blocks in place of the blueprint's total.
     */
    build_structure_place_missing: async (ctx) => {
      const { world } = ctx;
      const planned = plannedBlocks(ctx.args);
      const report = () => ctx.progress(planned.filter((block) => inPlace(ctx, block)).length, planned.length);
      report();
      for (const block of planned) {
        if (inPlace(ctx, block)) continue;
        if (!withinReach(world.position(), block.position)) {
          const goal = { kind: 'near' as const, ...block.position, range: APPROACH_RANGE };
          await ctx.actuate('goto', () => world.goto(goal, { signal: ctx.signal }));
        }
        if (occupiedByBot(block.position, world.position())) await stepAside(ctx, planned, block);
        await ctx.actuate('place', () => world.place(block.position, block.block, { signal: ctx.signal }));
        report();
      }
    },
  },
};
