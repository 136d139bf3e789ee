import { defineCapability } from 'verbtree';
import { fleeExpects } from './acceptance.js';
import { fleeBindings } from './bindings.js';
import { fleeGuard } from './guard.js';
import { FleeArgs } from './schema.js';

export default defineCapability({
  name: 'flee',
  version: '1.0.0',
  description: 'Run away from a position or the nearest hostile mob until at a safe distance.',
  inputSchema: FleeArgs,
  safetyLevel: 'caution',
  expectedDurationMs: 6_000,
  retryableCodes: [
    'no_path',
    'stuck.position',
    'stuck.path',
    'stuck.flap',
    'ttfa_exceeded',
    'effects_unmet',
    'world_disconnected',
  ],
  preconds: ['threat_known'],
  effects: ['safe_distance'],
  tree: 'flee',
  moves: true,
  bindings: fleeBindings,
  guard: fleeGuard,
  expect: fleeExpects,
});
