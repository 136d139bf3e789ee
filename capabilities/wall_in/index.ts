import { defineCapability } from 'verbtree';
import { wallInExpects } from './acceptance.js';
import { wallInBindings } from './bindings.js';
import { wallInGuard } from './guard.js';
import { WallInArgs } from './schema.js';

export default defineCapability({
  name: 'wall_in',
  version: '1.0.0',
  description:
    'Wall the bot in where it stands, a block on each side at feet and head level, e.g. to shelter from zombies at night.',
  inputSchema: WallInArgs,
  safetyLevel: 'caution',
  expectedDurationMs: 6_000,
  retryableCodes: ['ttfa_exceeded', 'effects_unmet', 'runner_error', 'world_disconnected'],
  preconds: ['has_item'],
  effects: ['walled_in'],
  tree: 'wall_in',
  bindings: wallInBindings,
  guard: wallInGuard,
  expect: wallInExpects,
});
