import { defineCapability } from 'verbtree';
import { placeBlockExpects } from './acceptance.js';
import { placeBlockBindings } from './bindings.js';
import { placeBlockGuard } from './guard.js';
import { PlaceBlockArgs } from './schema.js';
import { placeBlockSubgoals } from './subgoals.js';

export default defineCapability({
  name: 'place_block',
  version: '1.0.0',
  description:
    'Walk within reach of an empty cell and place one block from the inventory there, verified on the server.',
  inputSchema: PlaceBlockArgs,
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
  preconds: ['has_item', 'cell_empty'],
  effects: ['block_placed'],
  tree: 'place_block',
  // Not `moves`: the walk is short and path-watched; the placement itself stands still.
  bindings: placeBlockBindings,
  guard: placeBlockGuard,
  expect: placeBlockExpects,
  observes: ({ position }) => [position],
  subgoals: placeBlockSubgoals,
});
