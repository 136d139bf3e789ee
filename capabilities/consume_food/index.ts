import { defineCapability } from 'verbtree';
import { consumeFoodExpects } from './acceptance.js';
import { consumeFoodBindings } from './bindings.js';
import { consumeFoodGuard } from './guard.js';
import { ConsumeFoodArgs } from './schema.js';

export default defineCapability({
  name: 'consume_food',
  version: '1.0.0',
  description: 'Eat one food item (named, or the best fit for the hunger deficit) and verify hunger rose.',
  inputSchema: ConsumeFoodArgs,
  safetyLevel: 'safe',
  expectedDurationMs: 3_000,
  retryableCodes: ['ttfa_exceeded', 'effects_unmet', 'runner_error', 'world_disconnected'],
  preconds: ['hungry', 'has_food'],
  effects: ['food_restored'],
  tree: 'consume_food',
  // Eating is one transaction: preemption waits for it to end rather than waste the half-eaten food.
  atomic: true,
  bindings: consumeFoodBindings,
  guard: consumeFoodGuard,
  expect: consumeFoodExpects,
});
