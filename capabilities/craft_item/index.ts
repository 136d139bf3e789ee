import { defineCapability } from 'verbtree';
import { craftItemExpects } from './acceptance.js';
import { craftItemBindings } from './bindings.js';
import { craftItemGuard } from './guard.js';
import { CraftItemArgs } from './schema.js';
import { craftItemSubgoals } from './subgoals.js';

export default defineCapability({
  name: 'craft_item',
  version: '1.0.0',
  description:
    'Craft an item from inventory ingredients (2x2 grid, or a crafting table within 4 blocks); missing ingredients become sub-goals.',
  inputSchema: CraftItemArgs,
  safetyLevel: 'safe',
  expectedDurationMs: 3_000,
  retryableCodes: ['ttfa_exceeded', 'effects_unmet', 'runner_error', 'world_disconnected'],
  preconds: ['has_item', 'near_block'],
  effects: ['item_crafted'],
  tree: 'craft_item',
  // One transaction: preemption waits for the craft to end rather than cancel it halfway.
  atomic: true,
  bindings: craftItemBindings,
  guard: craftItemGuard,
  expect: craftItemExpects,
  subgoals: craftItemSubgoals,
});
