import { defineCapability, type Expectation } from 'verbtree';
import { activateBlockBindings } from './bindings.js';
import { activateGuard } from './guard.js';
import { ActivateBlockArgs } from './schema.js';
import { activateQuery, aimOf, cellOf } from './target.js';

export default defineCapability({
  name: 'activate_block',
  version: '1.0.0',
  description:
    'Walk up to a block and use it: open or shut a door, trapdoor or fence gate, flip a lever, till soil with a hoe; verified by the block in the state asked (or one use made), as the world holds it.',
  inputSchema: ActivateBlockArgs,
  safetyLevel: 'safe',
  expectedDurationMs: 10_000,
  retryableCodes: ['no_path', 'stuck.position', 'stuck.path', 'ttfa_exceeded', 'world_disconnected', 'effects_unmet'],
  preconds: ['near_block'],
  effects: ['block_state'],
  tree: 'activate_block',
  actuators: ['activate'],
  observes: activateQuery,
  bindings: activateBlockBindings,
  guard: activateGuard,
  // Done means the block is what the step aimed at from the world at dispatch: the state asked, or one use's
  // result. A block using does nothing to has no aim; the guard refuses that step before anything runs.
  expect: (pre, args): Expectation[] => {
    const aim = aimOf(args, pre);
    return aim?.ok ? [{ kind: 'block_state', at: cellOf(args), ...aim.state }] : [];
  },
});
