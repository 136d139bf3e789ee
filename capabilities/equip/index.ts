import { defineCapability } from 'verbtree';
import { equipExpects } from './acceptance.js';
import { equipBindings } from './bindings.js';
import { equipGuard } from './guard.js';
import { EquipArgs } from './schema.js';

export default defineCapability({
  name: 'equip',
  version: '1.0.0',
  description: 'Put an inventory item in the main hand, the off-hand or the armor slot it fits.',
  inputSchema: EquipArgs,
  safetyLevel: 'safe',
  expectedDurationMs: 1_000,
  retryableCodes: ['ttfa_exceeded', 'effects_unmet', 'runner_error', 'world_disconnected'],
  preconds: ['has_item'],
  effects: ['equipped'],
  tree: 'equip',
  bindings: equipBindings,
  guard: equipGuard,
  expect: equipExpects,
});
