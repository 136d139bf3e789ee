/**
 * The capability kit: what the verbs share, exported by `verbtree` so that a capability folder imports only
 * `verbtree` and its own files (a user copies a built-in verb's folder and it still compiles). Each piece is here
 * once; the built-in capabilities are its first users. Reach itself (`withinReach`, `REACH`, `EYE_HEIGHT`) is the
 * worlds' rule, in `src/world/reach.ts`.
 *
 * - waiting: `waitUntil` polls a condition on the run's clock, aborted with the node;
 * - drops: `dropsNear`, `restingCell`, `pickUp` (walk within pickup reach and wait for the hand-over);
 * - places: `spotBeside` (a cell to place a table or furnace), `isReplaceable`, `REPLACEABLE_BLOCKS`, `occupiedByBot`,
 *   `chooseBuildingBlock` (the block a pillar, a wall or a cover spends);
 * - blocks and tools: `BLOCK_TAGS`, `BlockOrTag`, `blocksFor`, `dropItemsOf`, `harvestToolFor`, `canHarvestWith`,
 *   `blocksDropping`, `gatherSourceFor`, `betterTool`;
 * - food: `FOOD_POINTS`, `isFood`, `chooseFood` (what consume_food eats unasked: nothing that poisons), `MAX_FOOD`;
 * - getting an item: `stepsToGet`, `subgoalsForMissingItem` (the built-in verbs' sub-goals for a missing item);
 * - rising: `jumpAndPlace` (a jump with a block placed under the feet: pillar_up, leave_shelter);
 * - entities: `targetQuery`, `targetOf`, `describeTarget` (the entity a step means), `fightUntilGone`,
 *   `walkStrikingBack` (a flight that strikes a pursuer it cannot outrun);
 * - chests: `chestQuery`, `chestOf`, `chestHolds`, `chestTransferArgs`, and the guard, expectations and leaves of
 *   a transfer (`transferGuard`, `transferExpects`, `transferBindings`).
 */
export {
  BLOCK_TAGS,
  BlockOrTag,
  blocksDropping,
  blocksFor,
  canHarvestWith,
  dropItemsOf,
  gatherSourceFor,
  harvestToolFor,
} from './block-tags.js';
export {
  BUILDING_BLOCKS,
  chooseBuildingBlock,
  climbingBlockCount,
  climbingBlocks,
  isBuildingBlock,
  shelterBlockCount,
} from './building-blocks.js';
export { isReplaceable, occupiedByBot, REPLACEABLE_BLOCKS } from './cells.js';
export { type ChestArgs, CHEST_SEARCH, chestHolds, chestOf, chestQuery, chestTransferArgs } from './chest.js';
export { transferBindings, type TransferDirection, transferExpects, transferGuard } from './chest-transfer.js';
export { dropsNear, pickUp, restingCell } from './drops.js';
export { describeTarget, type EntityTargetArgs, targetOf, targetQuery } from './entity-target.js';
export { fightUntilGone } from './fight.js';
export { chooseFood, FOOD_POINTS, isFood, MAX_FOOD } from './foods.js';
export { type BreakOff, type BreakOffRule, type BreakOffWording, watchBreakOff } from './break-off.js';
export { stepsToGet, subgoalsForMissingItem } from './item-subgoals.js';
export { jumpAndPlace } from './rise.js';
export { spotBeside } from './spot.js';
export { walkStrikingBack } from './strike-back.js';
export { betterTool } from './tools.js';
export { waitUntil } from './wait-until.js';
