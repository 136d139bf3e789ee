import { z } from 'zod';
import navigate from '../../capabilities/navigate/index.js';
import { CapabilityRegistry, defineCapability, ItemName } from '../../src/index.js';

/**
 * A small two-verb registry for validator tests: navigate, and dig_block in versions 1.0.0, 1.2.0 and a deprecated
 * 2.0.0.
 */
export function fixtureRegistry(): CapabilityRegistry {
  const dig = (version: string, deprecated?: string) =>
    defineCapability({
      name: 'dig_block',
      version,
      description: 'fixture',
      inputSchema: z.strictObject({
        position: z.strictObject({ x: z.int(), y: z.int(), z: z.int() }),
        block: ItemName.optional(),
        count: z.int().min(1).max(64).default(1),
      }),
      safetyLevel: 'safe',
      expectedDurationMs: 1000,
      retryableCodes: [],
      preconds: [],
      effects: [],
      ...(deprecated ? { deprecated } : {}),
      guard: () => ({ ok: true }),
      acceptance: () => ({ ok: true }),
    });
  return new CapabilityRegistry()
    .register(navigate)
    .register(dig('1.0.0'))
    .register(dig('1.2.0'))
    .register(dig('2.0.0', 'use 1.x'));
}

export const goodPlan = () => ({
  planId: 'p1',
  intentId: 'i1',
  steps: [
    { stepId: 'go', type: 'navigate', args: { target: { kind: 'near', x: 4, y: 0, z: 4 } } },
    { stepId: 'dig', type: 'dig_block', args: { position: { x: 4, y: 0, z: 5 }, block: 'oak_log' } },
  ],
});
