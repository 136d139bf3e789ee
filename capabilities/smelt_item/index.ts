import { defineCapability, SMELT_TICKS_PER_ITEM } from 'verbtree';
import { smeltItemExpects } from './acceptance.js';
import { smeltItemBindings } from './bindings.js';
import { furnaceQuery } from './choice.js';
import { smeltItemGuard } from './guard.js';
import { SmeltItemArgs } from './schema.js';
import { smeltItemSubgoals } from './subgoals.js';

/** Loading, taking the output and a short walk, besides the cooking itself. */
const OVERHEAD_MS = 5_000;
const MS_PER_ITEM = SMELT_TICKS_PER_ITEM * 50;

export default defineCapability({
  name: 'smelt_item',
  version: '1.0.0',
  description:
    'Smelt items in a furnace (raw_iron → iron_ingot, cobblestone → stone, a log → charcoal); a missing input, fuel or furnace becomes sub-goals.',
  inputSchema: SmeltItemArgs,
  safetyLevel: 'safe',
  expectedDurationMs: OVERHEAD_MS + MS_PER_ITEM,
  durationFor: ({ count }) => OVERHEAD_MS + count * MS_PER_ITEM,
  retryableCodes: ['ttfa_exceeded', 'effects_unmet', 'runner_error', 'world_disconnected'],
  preconds: ['has_item', 'near_block'],
  effects: ['item_smelted'],
  tree: 'smelt_item',
  actuators: ['smelt'],
  // Loading a furnace is one transaction; preemption waits for the smelt to end rather than cancel it halfway.
  atomic: true,
  observes: furnaceQuery,
  bindings: smeltItemBindings,
  guard: smeltItemGuard,
  expect: smeltItemExpects,
  subgoals: smeltItemSubgoals,
});
