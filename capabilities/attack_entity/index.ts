import { defineCapability, targetQuery } from 'verbtree';
import { attackEntityExpects } from './acceptance.js';
import { attackEntityBindings } from './bindings.js';
import { attackEntityGuard } from './guard.js';
import { AttackEntityArgs } from './schema.js';

export default defineCapability({
  name: 'attack_entity',
  version: '1.0.0',
  description:
    'Fight a mob (by id, or the nearest of a kind) until it is dead, as a player fights: strike at full charge (critical when it can), back away from the crowd while the weapon recharges; verified by its absence from the world.',
  inputSchema: AttackEntityArgs,
  safetyLevel: 'caution',
  expectedDurationMs: 30_000,
  retryableCodes: ['no_path', 'stuck.position', 'stuck.path', 'ttfa_exceeded', 'effects_unmet', 'world_disconnected'],
  preconds: ['entity_in_sight'],
  effects: ['entity_dead'],
  tree: 'attack_entity',
  moves: true,
  actuators: ['attack', 'look'],
  // A fight is not run from because its mob is hostile; low health, hunger and hazards still preempt it.
  engagesHostiles: true,
  observes: targetQuery,
  bindings: attackEntityBindings,
  guard: attackEntityGuard,
  expect: attackEntityExpects,
});
