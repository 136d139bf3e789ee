import { chestQuery, defineCapability, transferBindings, transferExpects, transferGuard } from 'verbtree';
import { StoreItemsArgs } from './schema.js';

export default defineCapability({
  name: 'store_items',
  version: '1.0.0',
  description:
    'Put items from the pack into a chest (one named, or the nearest in the open): walks up to it, verified in the chest and the pack.',
  inputSchema: StoreItemsArgs,
  safetyLevel: 'safe',
  expectedDurationMs: 8_000,
  retryableCodes: [
    'no_path',
    'stuck.position',
    'stuck.path',
    'ttfa_exceeded',
    'effects_unmet',
    'runner_error',
    'world_disconnected',
  ],
  preconds: ['has_item', 'near_block'],
  effects: ['items_stored'],
  tree: 'store_items',
  moves: true,
  actuators: ['deposit'],
  // A chest transfer is one window's clicks: preemption waits for it rather than close the window halfway.
  atomic: true,
  observes: chestQuery,
  bindings: transferBindings('store_items', 'deposit'),
  guard: transferGuard('deposit'),
  expect: transferExpects('deposit'),
});
