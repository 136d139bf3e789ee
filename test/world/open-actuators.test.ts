import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { actuatorsOf, WorldError, type WorldPort } from '../../src/contracts/world.js';
import { assembleExecutor, AssemblyError } from '../../src/executor/assemble.js';
import { defineCapability } from '../../src/registry/capability-spec.js';
import { RegistrationError } from '../../src/registry/registry.js';
import { injectWorldFaults } from '../../src/world/faults/index.js';
import { SimWorld, settle } from '../../src/world/sim/index.js';
import { wrapActuators } from '../../src/world/wrap-actuators.js';
import { z } from 'zod';

function world(inventory: Record<string, number> = {}) {
  const clock = new ManualClock();
  return { clock, sim: SimWorld.create({ clock, inventory }) };
}

async function failure(promise: Promise<unknown>): Promise<WorldError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorldError);
  return error as WorldError;
}

/** A user's verb that throws items away: it commands the optional `toss` actuator. */
const discard = defineCapability({
  name: 'discard',
  version: '1.0.0',
  description: 'Throw items out of the pack.',
  inputSchema: z.strictObject({ item: z.string(), count: z.int().min(1) }),
  safetyLevel: 'safe',
  expectedDurationMs: 1_000,
  retryableCodes: [],
  preconds: [],
  effects: ['items_tossed'],
  actuators: ['toss'],
  guard: () => ({ ok: true }),
  expect: (pre, { item, count }) => [{ kind: 'inventory', item, atMost: (pre.inventory[item] ?? 0) - count }],
});

/** The same world without its optional actuators, as a user's own WorldPort might be. */
function withoutOptional(inner: WorldPort): WorldPort {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- dropped from the copy, never called
  const { toss: _toss, chat: _chat, ...rest } = wrapActuators(inner, (_call, act) => act());
  return rest;
}

describe('optional actuators in SimWorld', () => {
  it('toss takes the items out of the pack and leaves them on the ground out of pickup range', async () => {
    const { clock, sim } = world({ dirt: 5 });
    expect((await settle(clock, sim.toss('dirt', 3))).state).toBe('ok');
    expect(sim.inventory()).toEqual({ dirt: 2 });
    expect(
      sim
        .entities()
        .filter((e) => e.kind === 'item')
        .map((e) => e.item),
    ).toEqual([{ name: 'dirt', count: 3 }]);
  });

  it('toss refuses what a server would, with the same codes: more than held, a count below 1', async () => {
    const { sim } = world({ dirt: 1 });
    expect((await failure(sim.toss('dirt', 2))).code).toBe('precondition_missing');
    expect((await failure(sim.toss('dirt', 0))).code).toBe('guard_failed');
    expect((await failure(sim.toss('stone', 1))).message).toContain('the inventory holds 0');
    expect(sim.inventory()).toEqual({ dirt: 1 });
  });

  it('chat is logged; empty, overlong and command messages are refused', async () => {
    const { clock, sim } = world();
    expect((await settle(clock, sim.chat('hello'))).state).toBe('ok');
    expect(sim.chatLog).toEqual(['hello']);
    for (const bad of ['  ', 'x'.repeat(257), '/tp 0 0 0'])
      expect((await failure(sim.chat(bad))).code).toBe('guard_failed');
    expect(sim.chatLog).toEqual(['hello']);
  });
});

describe('actuators a capability requires and a world provides', () => {
  it('a world provides the core actuators and each optional one it implements, through every wrapper', () => {
    const { clock, sim } = world();
    expect(actuatorsOf(sim)).toEqual([
      'goto',
      'dig',
      'place',
      'craft',
      'equip',
      'consume',
      'move',
      'toss',
      'chat',
      'smelt',
      'deposit',
      'withdraw',
      'attack',
      'look',
      'sleep',
      'activate',
    ]);
    expect(actuatorsOf(wrapActuators(sim, (_call, act) => act()))).toContain('smelt');
    expect(actuatorsOf(wrapActuators(sim, (_call, act) => act()))).toContain('toss');
    expect(actuatorsOf(injectWorldFaults(sim, [], { clock }))).toContain('chat');
    expect(actuatorsOf(withoutOptional(sim))).not.toContain('toss');
  });

  it('assembling a capability that needs toss with a world without it is refused, naming both', async () => {
    const { sim } = world({ dirt: 2 });
    const registry = createDefaultRegistry().register(discard);
    const refused = await assembleExecutor({ registry, world: withoutOptional(sim) }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AssemblyError);
    expect((refused as Error).message).toContain(
      'discard@1.0.0 needs the toss actuator, which the sim world does not provide (it provides goto, dig',
    );
    await expect(assembleExecutor({ registry, world: sim })).resolves.toHaveProperty('executor');
  });

  it('registering a capability that names an actuator no world has is refused with the likely one', () => {
    const registry = createDefaultRegistry();
    expect(() =>
      registry.register(defineCapability({ ...discard, name: 'discard2', actuators: ['tosss' as 'toss'] })),
    ).toThrow(RegistrationError);
    expect(() =>
      registry.register(defineCapability({ ...discard, name: 'discard2', actuators: ['tosss' as 'toss'] })),
    ).toThrow('did you mean "toss"?');
  });
});
