import { defineCapability } from 'verbtree';
import { collectBlockExpects } from './acceptance.js';
import { collectBlockBindings } from './bindings.js';
import { collectBlockGuard } from './guard.js';
import { CollectBlockArgs } from './schema.js';
import { collectBlockSubgoals } from './subgoals.js';

export default defineCapability({
  name: 'collect_block',
  version: '1.0.0',
  description:
    'Gather N of a block (or any of a tag such as #logs): find the nearest, walk, dig with the best tool, pick up the drops; verified by what the pack holds.',
  inputSchema: CollectBlockArgs,
  safetyLevel: 'safe',
  // A few blocks; a planner asking for many sets the step's own expectedDurationMs.
  expectedDurationMs: 60_000,
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
  preconds: ['block_in_sight', 'has_item'],
  effects: ['has_item'],
  tree: 'collect_block',
  // It breaks blocks: said so that clients know (MCP's destructiveHint).
  actuators: ['dig'],
  bindings: collectBlockBindings,
  guard: collectBlockGuard,
  expect: collectBlockExpects,
  subgoals: collectBlockSubgoals,
});
