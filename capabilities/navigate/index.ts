import { defineCapability } from 'verbtree';
import { navigateExpects } from './acceptance.js';
import { navigateGuard } from './guard.js';
import { NavigateArgs } from './schema.js';

export default defineCapability({
  name: 'navigate',
  version: '1.0.0',
  description: 'Walk to a block, near a point, or into a column, by pathfinding.',
  inputSchema: NavigateArgs,
  safetyLevel: 'safe',
  expectedDurationMs: 15_000,
  retryableCodes: [
    'no_path',
    'stuck.position',
    'stuck.path',
    'stuck.flap',
    'stuck.loop',
    'ttfa_exceeded',
    'world_disconnected',
  ],
  preconds: [],
  effects: ['at_target'],
  tree: 'navigate',
  moves: true,
  guard: navigateGuard,
  expect: navigateExpects,
});
