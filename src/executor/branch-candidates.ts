import { blockKey, type Vec3Like, type WorldPort } from '../contracts/world.js';
import type { BranchCandidate } from '../recovery/branches.js';
import { craftsFor, missingIngredients, recipeFor, recipeVariants } from '../world/recipes.js';
import type { AlternativeStep } from './planner.js';
import { isProtected } from './repair-fit.js';
import type { RunScope } from './scope.js';

/*
 * The ways out branch exploration tries for a stuck step, in the ladder's spirit: the step again on a fresh path
 * search, a pillar back to the goal's level out of a pit, another block of the same kind, a tunnel, a bridge, a pillar
 * (each with its parameters), then whatever the planner proposes. Only what the registry can run and the pack allows is gathered.
 */

const PILLAR_HEIGHTS = [1, 2];
/** The deepest pit a branch pillars out of: deeper, the bot is underground, not in a trench. */
const MAX_PIT = 6;
const LINE_REACH = 8;
const TUNNELS = 2;
/**
 * How much farther from the target than the bot a tunnel cell may be: a bot pressed against a wall has the wall's soft
 * block beside it, a little farther from the target than itself.
 */
const BESIDE = 1.5;
const OTHER_BLOCKS = 2;
const OPEN = new Set(['air', 'cave_air', 'void_air', 'water', 'lava']);

export interface CandidateSituation {
  verb: string;
  args: Record<string, unknown>;
  target: Vec3Like | undefined;
  proposals: readonly AlternativeStep[][];
}

/** At most `count` candidates, the ladder's first (in the order above), then the planner's. */
export function gatherCandidates(scope: RunScope, situation: CandidateSituation, count: number): BranchCandidate[] {
  const { registry, world } = scope;
  const { target } = situation;
  const block = placeableItem(world);
  const candidates: BranchCandidate[] = [
    { id: 'repath', source: 'repath', label: 'the step again on a fresh path search', steps: [], thenStep: true },
  ];
  const pillar = (height: number): BranchCandidate => ({
    id: `pillar:${height}`,
    source: 'pillar',
    label: `pillar up ${height}, then the step`,
    steps: [{ verb: 'pillar_up', args: { height } }],
    thenStep: true,
  });
  const canPillar = block !== null && registry.has('pillar_up');
  // A bot in a pit (the ladder's own moves can leave it in a trench) climbs back to its goal's level first of all.
  const outOfPit = canPillar ? pitDepth(world, target) : 0;
  if (outOfPit > 0) candidates.push(pillarOutOfPit(scope, target!, outOfPit, block!, pillar(outOfPit)));
  if (situation.verb === 'collect_block' && registry.has('navigate')) candidates.push(...otherBlocks(world, situation));
  if (registry.has('dig_block'))
    tunnelCells(scope, target).forEach((position, index) =>
      candidates.push({
        id: `tunnel:${index + 1}`,
        source: 'tunnel',
        label: `dig the block at ${position.x},${position.y},${position.z}, then the step`,
        steps: [{ verb: 'dig_block', args: { position } }],
        thenStep: true,
      }),
    );
  const bridge = block && registry.has('place_block') ? bridgeCells(scope, target) : [];
  if (bridge.length > 0)
    candidates.push({
      id: 'bridge',
      source: 'bridge',
      label: `bridge ${bridge.length} ${block} toward the target, then the step`,
      steps: bridge.map((position) => ({ verb: 'place_block', args: { position, item: block } })),
      thenStep: true,
    });
  if (canPillar) for (const height of PILLAR_HEIGHTS) if (height !== outOfPit) candidates.push(pillar(height));
  situation.proposals.forEach((steps, index) =>
    candidates.push({
      id: `planner:${index + 1}`,
      source: 'planner',
      label: `the planner's ${steps.map((step) => step.type).join(' then ')}`,
      steps: steps.map((step) => ({ verb: step.type, args: step.args ?? {} })),
      thenStep: false,
    }),
  );
  return candidates.filter((candidate) => candidate.thenStep || candidate.steps.length > 0).slice(0, count);
}

/**
 * How far the bot's feet are below its target's level when that is more than the plain pillars rise (a pit, a trench),
 * at most MAX_PIT; else 0.
 */
function pitDepth(world: WorldPort, target: Vec3Like | undefined): number {
  if (!target) return 0;
  const depth = Math.floor(target.y) - Math.floor(world.position().y);
  return depth > Math.max(...PILLAR_HEIGHTS) ? Math.min(depth, MAX_PIT) : 0;
}

/** Up to the goal's level, then a bridge from the pillar's top over what is open on the way (a trench's far half). */
function pillarOutOfPit(
  scope: RunScope,
  target: Vec3Like,
  depth: number,
  block: string,
  pillar: BranchCandidate,
): BranchCandidate {
  if (!scope.registry.has('place_block')) return pillar;
  const at = scope.world.position();
  const bridge = bridgeCells(scope, target, { ...at, y: at.y + depth });
  if (bridge.length === 0) return pillar;
  return {
    ...pillar,
    id: `${pillar.id}+bridge`,
    label: `pillar up ${depth}, bridge ${bridge.length} ${block} toward the target, then the step`,
    steps: [...pillar.steps, ...bridge.map((position) => ({ verb: 'place_block', args: { position, item: block } }))],
  };
}

/** The pack's most plentiful item, the one a pillar or a bridge would be built of; null with an empty pack. */
function placeableItem(world: WorldPort): string | null {
  const items = Object.entries(world.inventory()).filter(([, n]) => n > 0);
  items.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return items[0]?.[0] ?? null;
}

/** Walking to another instance of the block asked for first, so the step's nearest is that one (not a tag's). */
function otherBlocks(world: WorldPort, situation: CandidateSituation): BranchCandidate[] {
  const name = situation.args.block;
  const radius = typeof situation.args.radius === 'number' ? situation.args.radius : 32;
  if (typeof name !== 'string' || name.startsWith('#')) return [];
  const found = world.findBlocks({ names: [name], maxDistance: radius, count: OTHER_BLOCKS + 1, exposed: true });
  return found.slice(1, OTHER_BLOCKS + 1).map((at, index) => ({
    id: `another_block:${index + 1}`,
    source: 'another_block' as const,
    label: `go to the ${name} at ${at.x},${at.y},${at.z}, then the step`,
    steps: [{ verb: 'navigate', args: { target: { kind: 'near', x: at.x, y: at.y, z: at.z, range: 2 } } }],
    thenStep: true,
  }));
}

/**
 * The diggable cells at the bot's feet and head levels within LINE_REACH that lie nearer the target than the bot (or
 * beside it), the nearest to the straight way first: a wall's one soft block, wherever the bot stands along the wall.
 * Never a protected cell.
 */
function tunnelCells(scope: RunScope, target: Vec3Like | undefined): Vec3Like[] {
  const { world } = scope;
  if (!target) return [];
  const at = world.position();
  const feet = Math.floor(at.y);
  const goal = { x: target.x + 0.5, z: target.z + 0.5 };
  const away = Math.hypot(goal.x - at.x, goal.z - at.z);
  const found: { cell: Vec3Like; off: number }[] = [];
  for (let x = Math.floor(at.x) - LINE_REACH; x <= Math.floor(at.x) + LINE_REACH; x++)
    for (let z = Math.floor(at.z) - LINE_REACH; z <= Math.floor(at.z) + LINE_REACH; z++)
      for (const y of [feet, feet + 1]) {
        const cell = { x, y, z };
        if (Math.hypot(goal.x - x - 0.5, goal.z - z - 0.5) >= away + BESIDE) continue;
        const block = world.blockAt(cell);
        if (!block?.diggable || OPEN.has(block.name) || isProtected(cell, target, world, scope.policy)) continue;
        found.push({
          cell,
          off: offLine(at, goal, { x: x + 0.5, z: z + 0.5 }) + Math.hypot(x + 0.5 - at.x, z + 0.5 - at.z) / 100,
        });
      }
  return found
    .sort((a, b) => a.off - b.off)
    .slice(0, TUNNELS)
    .map((entry) => entry.cell);
}

/** How far `p` lies from the straight way from `a` to `b`, on the ground plane. */
function offLine(a: { x: number; z: number }, b: { x: number; z: number }, p: { x: number; z: number }): number {
  const length = Math.hypot(b.x - a.x, b.z - a.z) || 1;
  return Math.abs((b.x - a.x) * (a.z - p.z) - (a.x - p.x) * (b.z - a.z)) / length;
}

/**
 * The open cells (air, water, lava) under the straight way to the target, nearest first, within LINE_REACH. The way is
 * a walk of cells side by side: where the line crosses a corner (both x and z change), the cell beside the corner is
 * taken too, as a bot cannot walk from one block to another that only touches it at a corner. From where the bot
 * stands, or `from` (the top of a pillar it would build first).
 */
function bridgeCells(scope: RunScope, target: Vec3Like | undefined, from?: Vec3Like): Vec3Like[] {
  const { world } = scope;
  if (!target) return [];
  const at = from ?? world.position();
  const y = Math.floor(at.y) - 1;
  const dx = target.x + 0.5 - at.x;
  const dz = target.z + 0.5 - at.z;
  const length = Math.hypot(dx, dz);
  const cells = new Map<string, Vec3Like>();
  const consider = (cell: Vec3Like) => {
    if (OPEN.has(world.blockAt(cell)?.name ?? '') && !isProtected(cell, target, world, scope.policy))
      cells.set(blockKey(cell), cell);
  };
  let last = { x: Math.floor(at.x), y, z: Math.floor(at.z) };
  for (let step = 1; step <= Math.min(LINE_REACH, Math.floor(length)); step++) {
    const cell = { x: Math.floor(at.x + (dx / length) * step), y, z: Math.floor(at.z + (dz / length) * step) };
    if (cell.x !== last.x && cell.z !== last.z) consider({ x: cell.x, y, z: last.z });
    consider(cell);
    last = cell;
  }
  return [...cells.values()];
}

/**
 * For a craft whose sub-goals could not get its recipe's usual input: each other recipe of the item whose missing
 * ingredients the pack can craft now (birch planks from the birch log it holds, when the usual recipe wants oak), as
 * those crafts, then the step. At most `count`, the most common recipes first.
 */
export function recipeCandidates(scope: RunScope, item: string, count: number, limit: number): BranchCandidate[] {
  const pack = scope.world.inventory();
  const usual = scope.world.recipe(item);
  const candidates: BranchCandidate[] = [];
  for (const variant of recipeVariants(item)) {
    if (candidates.length >= limit || !scope.registry.has('craft_item')) break;
    if (usual && JSON.stringify(variant.ingredients) === JSON.stringify(usual.ingredients)) continue;
    const lacking = Object.entries(missingIngredients(variant, craftsFor(variant, count), pack));
    const craftable = lacking.every(([name, need]) => {
      const recipe = recipeFor(name, pack);
      return recipe !== null && Object.keys(missingIngredients(recipe, craftsFor(recipe, need), pack)).length === 0;
    });
    if (lacking.length === 0 || !craftable) continue;
    const made = lacking.map(([name, need]) => `${need} ${name}`).join(' and ');
    candidates.push({
      id: `recipe:${candidates.length + 1}`,
      source: 'recipe',
      label: `craft ${made} (the ${item} recipe with ${lacking.map(([name]) => name).join(' and ')}), then the step`,
      steps: lacking.map(([name, need]) => ({ verb: 'craft_item', args: { item: name, count: need } })),
      thenStep: true,
    });
  }
  return candidates;
}
