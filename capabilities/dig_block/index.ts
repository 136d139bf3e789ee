import { defineCapability } from 'verbtree';
import { digBlockExpects } from './acceptance.js';
import { digBlockBindings } from './bindings.js';
import { digBlockGuard } from './guard.js';
import { DigBlockArgs } from './schema.js';
import { digBlockSubgoals } from './subgoals.js';

export default defineCapability({
  name: 'dig_block',
  version: '1.0.0',
  description: 'Walk within reach of a block, pick the best tool held, break it and verify it is gone on the server.',
  inputSchema: DigBlockArgs,
  safetyLevel: 'safe',
  expectedDurationMs: 10_000,
  retryableCodes: [
    'no_path',
    'stuck.position',
    'stuck.path',
    'stuck.progress',
    'ttfa_exceeded',
    'effects_unmet',
    'runner_error',
    'world_disconnected',
  ],
  preconds: ['block_present'],
  effects: ['block_removed'],
  tree: 'dig_block',
  // It breaks blocks: said so that clients know (MCP's destructiveHint).
  actuators: ['dig'],
  // Not `moves`: the walk is short and path-watched, and a long dig stands still past the position detector's limit.
  bindings: digBlockBindings,
  guard: digBlockGuard,
  expect: digBlockExpects,
  observes: ({ position }) => [position],
  subgoals: digBlockSubgoals,
});
