import { chestQuery, defineCapability, transferBindings, transferExpects, transferGuard } from 'verbtree';
import { TakeItemsArgs } from './schema.js';

export default defineCapability({
  name: 'take_items',
  version: '1.0.0',
  description:
    'Take items from a chest (one named, or the nearest in the open) into the pack: walks up to it, verified in the chest and the pack.',
  inputSchema: TakeItemsArgs,
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
  preconds: ['chest_holds', 'near_block'],
  effects: ['items_taken'],
  tree: 'take_items',
  moves: true,
  actuators: ['withdraw'],
  atomic: true,
  observes: chestQuery,
  bindings: transferBindings('take_items', 'withdraw'),
  guard: transferGuard('withdraw'),
  expect: transferExpects('withdraw'),
});
