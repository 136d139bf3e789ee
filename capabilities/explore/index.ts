import { defineCapability } from 'verbtree';
import { exploreBindings } from './bindings.js';
import { exploreExpects } from './expect.js';
import { ExploreArgs } from './schema.js';

export default defineCapability({
  name: 'explore',
  version: '1.0.0',
  description:
    'Walk outward, lookout by lookout, until a block of a kind (or any of a tag) lies in the open within sight; verified against the world.',
  inputSchema: ExploreArgs,
  safetyLevel: 'safe',
  // Up to 48 lookouts; a planner exploring far sets the step's own expectedDurationMs.
  expectedDurationMs: 120_000,
  retryableCodes: [
    'no_path',
    'stuck.position',
    'stuck.path',
    'stuck.progress',
    'ttfa_exceeded',
    'runner_error',
    'world_disconnected',
  ],
  preconds: [],
  effects: ['block_in_sight'],
  tree: 'explore',
  bindings: exploreBindings,
  // Walking out needs nothing the pack or the world must hold first.
  guard: () => ({ ok: true }),
  expect: exploreExpects,
});
