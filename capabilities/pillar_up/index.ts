import { defineCapability } from 'verbtree';
import { pillarUpExpects } from './acceptance.js';
import { pillarUpBindings } from './bindings.js';
import { pillarUpGuard } from './guard.js';
import { PillarUpArgs } from './schema.js';

export default defineCapability({
  name: 'pillar_up',
  version: '1.0.0',
  description: 'Rise straight up by jumping and placing blocks underneath, e.g. to escape mobs at night.',
  inputSchema: PillarUpArgs,
  safetyLevel: 'caution',
  expectedDurationMs: 6_000,
  retryableCodes: ['stuck.progress', 'ttfa_exceeded', 'effects_unmet', 'runner_error', 'world_disconnected'],
  preconds: ['has_item', 'headroom'],
  effects: ['raised'],
  tree: 'pillar_up',
  // Not `moves`: it rises in place, and the progress it reports (blocks risen) is the better signal.
  bindings: pillarUpBindings,
  guard: pillarUpGuard,
  expect: pillarUpExpects,
});
