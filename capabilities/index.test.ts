import { describe, expect, it } from 'vitest';
import { exportJsonSchemas, VERB_PATTERN } from '../src/index.js';
import { builtinCapabilities, createDefaultRegistry } from './index.js';

const CANONICAL_VERBS = [
  'activate_block',
  'attack_entity',
  'build_structure',
  'collect_block',
  'collect_drops',
  'consume_food',
  'craft_item',
  'dig_block',
  'dig_in',
  'equip',
  'explore',
  'flee',
  'follow_entity',
  'guard_area',
  'leave_shelter',
  'navigate',
  'pillar_up',
  'place_block',
  'sleep',
  'smelt_item',
  'store_items',
  'take_items',
  'wall_in',
];

describe('builtin capabilities', () => {
  it('register the canonical verbs, each naming its own tree and declaring effects', () => {
    const registry = createDefaultRegistry();
    expect(registry.verbs()).toEqual(CANONICAL_VERBS);
    for (const spec of builtinCapabilities) {
      expect(spec.name).toMatch(VERB_PATTERN);
      expect(spec.tree).toBe(spec.name);
      expect(spec.effects.length).toBeGreaterThan(0);
      expect(spec.expectedDurationMs).toBeGreaterThan(0);
    }
  });

  it('give every input a described JSON Schema that forbids unknown fields', () => {
    for (const { name, inputSchema } of exportJsonSchemas(createDefaultRegistry())) {
      expect([name, typeof inputSchema.description]).toEqual([name, 'string']);
      expect([name, inputSchema.additionalProperties]).toEqual([name, false]);
    }
  });

  it('build a fresh registry each time, so callers can add their own versions', () => {
    expect(createDefaultRegistry()).not.toBe(createDefaultRegistry());
  });
});
