import { defineCapability } from 'verbtree';
import { collectDropsExpects } from './acceptance.js';
import { collectDropsBindings } from './bindings.js';
import { collectDropsGuard } from './guard.js';
import { CollectDropsArgs } from './schema.js';

export default defineCapability({
  name: 'collect_drops',
  version: '1.0.0',
  description: 'Walk over dropped items near the bot (optionally of one kind) and verify the inventory grew.',
  inputSchema: CollectDropsArgs,
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
  preconds: ['drops_nearby'],
  effects: ['drops_collected'],
  tree: 'collect_drops',
  moves: true,
  bindings: collectDropsBindings,
  guard: collectDropsGuard,
  expect: collectDropsExpects,
  // The drops lying within the radius at dispatch are what the step must pick up.
  observes: ({ radius }) => ({ drops: { radius } }),
});
