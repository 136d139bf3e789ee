import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { CapabilityRegistry, RegistrationError } from '../../src/registry/registry.js';

const spec = (inputSchema: unknown) =>
  ({
    name: 'wave',
    version: '1.0.0',
    description: 'Wave an arm.',
    inputSchema,
    safetyLevel: 'safe',
    expectedDurationMs: 1000,
    retryableCodes: [],
    preconds: [],
    effects: [],
    guard: () => ({ ok: true }),
    expect: () => [],
    runner: async () => undefined,
  }) as never;

describe('a capability whose schema verbtree cannot use', () => {
  it('is refused at registration when it comes from zod 3, naming the fix (before: every plan rejected later with "keyValidator._parse is not a function")', () => {
    const registry = new CapabilityRegistry();
    expect(() => registry.register(spec(z3.object({ arm: z3.string() })))).toThrow(RegistrationError);
    expect(() => registry.register(spec(z3.object({ arm: z3.string() })))).toThrow(/wave@1\.0\.0: inputSchema comes from zod 3; verbtree needs zod 4 schemas \(npm install zod@\^4/);
    expect(() => registry.register(spec({ arm: 'string' }))).toThrow(/is not a zod schema/);
    expect(() => registry.register(spec(z.object({ arm: z.string() })))).not.toThrow();
  });
});
