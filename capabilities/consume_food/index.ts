import { defineCapability } from '../../src/index.js';
import { consumeFoodAcceptance } from './acceptance.js';
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
  guard: consumeFoodGuard,
  acceptance: consumeFoodAcceptance,
});
