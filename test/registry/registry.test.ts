import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { CapabilityRegistry, defineCapability, exportJsonSchemas, RegistrationError } from '../../src/index.js';

const capability = (name: string, version: string, extra: { deprecated?: string; canary?: boolean } = {}) =>
  defineCapability({
    name,
    version,
    description: `${name} ${version}`,
    inputSchema: z.strictObject({ item: z.string().describe('what to use'), count: z.int().min(1).default(1) }),
    safetyLevel: 'safe',
    expectedDurationMs: 1000,
    retryableCodes: [],
    preconds: [],
    effects: [],
    guard: () => ({ ok: true }),
    acceptance: () => ({ ok: true }),
    ...extra,
  });

describe('CapabilityRegistry', () => {
  it('refuses the same name@version twice, naming the fix', () => {
    const registry = new CapabilityRegistry().register(capability('equip', '1.0.0'));
    expect(() => registry.register(capability('equip', '1.0.0'))).toThrow(
      new RegistrationError('equip@1.0.0 is already registered; bump the version to register a new one'),
    );
  });

  it('refuses a version that is not semver', () => {
    expect(() => new CapabilityRegistry().register(capability('equip', 'v1'))).toThrow(/version "v1" is not semver/);
  });

  it('resolves the newest stable version when no range is given, skipping prereleases and deprecated ones', () => {
    const registry = new CapabilityRegistry()
      .register(capability('equip', '1.0.0'))
      .register(capability('equip', '1.4.0'))
      .register(capability('equip', '2.0.0-beta.1'))
      .register(capability('equip', '1.9.0', { deprecated: 'buggy' }));
    const resolution = registry.resolve('equip');
    expect(resolution.ok && resolution.spec.version).toBe('1.4.0');
    const beta = registry.resolve('equip', '>=2.0.0-beta');
    expect(beta.ok && beta.spec.version).toBe('2.0.0-beta.1');
  });

  it('still runs a deprecated version a step asks for, with a warning', () => {
    const registry = new CapabilityRegistry()
      .register(capability('equip', '1.0.0', { deprecated: 'use 2.x' }))
      .register(capability('equip', '2.0.0'));
    const resolution = registry.resolve('equip', '^1');
    expect(resolution).toMatchObject({ ok: true, warnings: ['equip@1.0.0 is deprecated: use 2.x'] });
  });

  it('falls back to a deprecated version when it is the only one', () => {
    const registry = new CapabilityRegistry().register(capability('equip', '1.0.0', { deprecated: 'going away' }));
    expect(registry.resolve('equip')).toMatchObject({ ok: true, warnings: ['equip@1.0.0 is deprecated: going away'] });
  });

  it('says an entry without a runner is not runnable', () => {
    const registry = new CapabilityRegistry().register(capability('equip', '1.0.0'));
    expect(registry.summaries()).toEqual([
      { name: 'equip', version: '1.0.0', description: 'equip 1.0.0', runnable: false },
    ]);
  });

  it("exports every version's input as JSON Schema with descriptions and defaults", () => {
    const registry = new CapabilityRegistry()
      .register(capability('equip', '1.0.0'))
      .register(capability('equip', '1.1.0'));
    const schemas = exportJsonSchemas(registry);
    expect(schemas.map((s) => s.version)).toEqual(['1.1.0', '1.0.0']);
    expect(schemas[0]!.inputSchema).toMatchObject({
      type: 'object',
      required: ['item'],
      additionalProperties: false,
      properties: {
        item: { type: 'string', description: 'what to use' },
        count: { type: 'integer', minimum: 1, default: 1 },
      },
    });
  });

  it('refuses a schema from zod 3 at registration, naming the fix (before: every plan rejected later with "keyValidator._parse is not a function")', () => {
    const registry = new CapabilityRegistry();
    const withSchema = (inputSchema: unknown) => ({ ...capability('wave', '1.0.0'), inputSchema }) as never;
    expect(() => registry.register(withSchema(z3.object({ arm: z3.string() })))).toThrow(
      /wave@1\.0\.0: inputSchema comes from zod 3; verbtree needs zod 4 schemas \(npm install zod@\^4/,
    );
    expect(() => registry.register(withSchema({ arm: 'string' }))).toThrow(/is not a zod schema/);
    expect(() => registry.register(withSchema(z.object({ arm: z.string() })))).not.toThrow();
  });
});

const withCanary = () =>
  new CapabilityRegistry()
    .register(capability('collect_block', '1.4.0'))
    .register(capability('collect_block', '2.0.0', { canary: true }));

describe('canaries in the registry', () => {
  it('lets the stable version act while a newer canary is registered beside it', () => {
    const registry = withCanary();
    const acting = registry.resolve('collect_block');
    expect(acting.ok && acting.spec.version).toBe('1.4.0');
    expect(registry.canaryOf('collect_block')?.version).toBe('2.0.0');
    expect(registry.canaries()).toEqual([
      { verb: 'collect_block', version: '2.0.0', stable: '1.4.0', promoted: false },
    ]);
    expect(registry.summaries().map((s) => [s.version, s.canary])).toEqual([
      ['2.0.0', 'shadow'],
      ['1.4.0', undefined],
    ]);
  });

  it('never resolves an unpromoted canary, even for a step that asks for its version', () => {
    const resolution = withCanary().resolve('collect_block', '^2');
    expect(resolution).toEqual({
      ok: false,
      code: 'version_unsatisfied',
      message:
        'collect_block@2.0.0 is a canary: it runs only in shadow until promoted (verbtree registry promote collect_block@2.0.0); available: 1.4.0',
      available: ['1.4.0'],
    });
  });

  it('makes a promoted canary the acting version, and no longer a shadow', () => {
    const registry = withCanary();
    registry.promote('collect_block', '2.0.0');
    const acting = registry.resolve('collect_block');
    expect(acting.ok && acting.spec.version).toBe('2.0.0');
    expect(registry.canaryOf('collect_block')).toBeUndefined();
    expect(registry.canaries()[0]).toMatchObject({ promoted: true, stable: '1.4.0' });
  });

  it('refuses at load a canary with no stable version, one not newer than it, or a second canary', () => {
    expect(() => new CapabilityRegistry().register(capability('collect_block', '2.0.0', { canary: true }))).toThrow(
      new RegistrationError(
        'collect_block@2.0.0: canary: true, but no stable version of "collect_block" is registered to act beside it; register the stable version first (a canary never acts until promoted)',
      ),
    );
    expect(() =>
      new CapabilityRegistry()
        .register(capability('collect_block', '1.4.0'))
        .register(capability('collect_block', '1.3.0', { canary: true })),
    ).toThrow(
      new RegistrationError(
        'collect_block@1.3.0: canary: true, but it is not newer than the stable collect_block@1.4.0; give it a version above 1.4.0',
      ),
    );
    expect(() => withCanary().register(capability('collect_block', '2.1.0', { canary: true }))).toThrow(
      /collect_block@2.1.0: canary: true, but collect_block@2.0.0 is already its canary; a verb has one canary at a time/,
    );
  });

  it('refuses to promote what is not a canary, naming what there is', () => {
    const registry = withCanary();
    expect(() => registry.promote('colect_block', '2.0.0')).toThrow(
      'promote colect_block@2.0.0: unknown verb "colect_block"; did you mean "collect_block"?',
    );
    expect(() => registry.promote('collect_block', '3.0.0')).toThrow(
      'promote collect_block@3.0.0: collect_block has no version "3.0.0" (versions: 2.0.0, 1.4.0; its canaries: collect_block@2.0.0)',
    );
    expect(() => registry.promote('collect_block', '1.4.0')).toThrow(
      'promote collect_block@1.4.0: collect_block@1.4.0 is not a canary, so there is nothing to promote (its canaries: collect_block@2.0.0)',
    );
    expect(registry.resolve('collect_block')).toMatchObject({ ok: true, spec: { version: '1.4.0' } });
  });
});
