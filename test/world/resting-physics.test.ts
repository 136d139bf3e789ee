import { createRequire } from 'node:module';
import fc from 'fast-check';
import type { Block } from 'prismarine-block';
import type { Registry } from 'prismarine-registry';
import { describe, expect, it } from 'vitest';
import { playerEntity } from '../helpers/player-body.js';
import { Vec3 } from 'vec3';
import { restingSimulation } from '../../src/world/mineflayer/resting-physics.js';

/*
 * Issue 34, §2: the physics of a bot at rest (on the ground, no control pressed, nothing pushing it) is not simulated
 * again while nothing changes. A bot's body must go exactly where mineflayer's physics takes it, tick by tick, whatever
 * happens to it between ticks: controls pressed and released, a push (a knockback's velocity), a turn, blocks placed
 * and removed around it (its floor included).
 */

interface SyncWorld {
  getBlock(at: Vec3): Block | null;
  setBlockStateId(at: Vec3, state: number): void;
  setColumn(chunkX: number, chunkZ: number, column: unknown): void;
  on(event: 'blockUpdate', listener: (before: Block | null, after: Block | null) => void): void;
}

type PhysicsWorld = { getBlock(at: Vec3): Block | null };
type State = { apply(bot: Body): void };
interface Physics {
  simulatePlayer: (state: State, world: PhysicsWorld) => State;
}

const require = createRequire(import.meta.url);
const World = (require('prismarine-world') as (version: string) => new (...args: unknown[]) => { sync: SyncWorld })(
  '1.21.4',
);
const Chunk = (require('prismarine-chunk') as (version: string) => new () => unknown)('1.21.4');
const registry = (require('prismarine-registry') as (version: string) => Registry)('1.21.4');
const { Physics, PlayerState } = require('prismarine-physics') as {
  Physics: (registry: Registry, world: PhysicsWorld) => Physics;
  PlayerState: new (bot: Body, control: Controls) => State;
};

const CONTROLS = ['forward', 'back', 'left', 'right', 'jump', 'sprint', 'sneak'] as const;
type Controls = Record<(typeof CONTROLS)[number], boolean>;

/** What PlayerState reads of a mineflayer bot, and what its apply() writes back. */
interface Body {
  version: string;
  entity: Record<string, unknown> & { position: Vec3; velocity: Vec3; yaw: number; onGround: boolean };
  jumpTicks: number;
  jumpQueued: boolean;
  fireworkRocketDuration: number;
  inventory: { slots: unknown[] };
  control: Controls;
}

const state = (name: string) => registry.blocksByName[name]!.defaultState;
const FLOOR = state('stone');
const PLACEABLE = ['air', 'stone', 'water', 'oak_slab', 'soul_sand', 'ladder', 'cobweb', 'ice', 'honey_block'].map(
  state,
);

/** A stone floor at y = 0 from -8 to 8, in loaded columns from -32 to 31. */
function floored(): SyncWorld {
  const world = new World(() => new Chunk()).sync;
  for (let x = -2; x <= 1; x++) for (let z = -2; z <= 1; z++) world.setColumn(x, z, new Chunk());
  for (let x = -8; x <= 8; x++) for (let z = -8; z <= 8; z++) world.setBlockStateId(new Vec3(x, 0, z), FLOOR);
  return world;
}

function bodyAt(at: Vec3): Body {
  const entity = playerEntity(at, false);
  const control = Object.fromEntries(CONTROLS.map((c) => [c, false])) as Controls;
  const body = { version: '1.21.4', entity, jumpTicks: 0, jumpQueued: false, fireworkRocketDuration: 0 };
  return { ...body, inventory: { slots: [] }, control };
}

/** Mineflayer's physics tick (plugins/physics.js): a new PlayerState of the bot, simulated, applied. */
function tick(body: Body, simulate: Physics['simulatePlayer'], world: PhysicsWorld): void {
  simulate(new PlayerState(body, body.control), world).apply(body);
}

/** Where a body is and how it moves, for comparing two. */
function described({ entity, jumpTicks, jumpQueued }: Body) {
  const { position, velocity, onGround, isInWater, isInWeb, isCollidedHorizontally, isCollidedVertically } = entity;
  return {
    position: position.toArray(),
    velocity: velocity.toArray(),
    flags: [onGround, isInWater, isInWeb, isCollidedHorizontally, isCollidedVertically],
    jumpTicks,
    jumpQueued,
  };
}

/** Two bodies in one world: one simulated by prismarine-physics every tick, the other through the resting wrapper. */
function twins(at: Vec3) {
  const world = floored();
  const lookup: PhysicsWorld = { getBlock: (pos) => world.getBlock(pos) };
  const physics = Physics(registry, lookup);
  let simulations = 0;
  const counted: Physics['simulatePlayer'] = (s, w) => {
    simulations++;
    return physics.simulatePlayer(s, w);
  };
  const resting = restingSimulation(counted as (state: object, world: PhysicsWorld) => State);
  world.on('blockUpdate', (before, after) => {
    const where = after?.position ?? before?.position;
    if (where) resting.blockChanged(where);
  });
  const plain = bodyAt(at);
  const rested = bodyAt(at);
  return {
    world,
    plain,
    rested,
    simulations: () => simulations,
    tick: () => {
      tick(plain, physics.simulatePlayer, lookup);
      tick(rested, resting.simulate as Physics['simulatePlayer'], lookup);
    },
  };
}

// Blocks changed mostly where they touch the body: its floor, its feet, beside it.
const near = fc.constantFrom(0, 0, 0, -1, 1, 2);
const level = fc.constantFrom(0, 0, 1, 2);
const event = fc.oneof(
  fc.record({ ticks: fc.integer({ min: 1, max: 25 }) }),
  fc.record({ control: fc.constantFrom(...CONTROLS), on: fc.boolean() }),
  fc.record({
    push: fc.tuple(
      fc.double({ min: -0.6, max: 0.6, noNaN: true }),
      fc.double({ min: 0, max: 0.6, noNaN: true }),
      fc.double({ min: -0.6, max: 0.6, noNaN: true }),
    ),
  }),
  fc.record({ yaw: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }) }),
  fc.record({ block: fc.tuple(near, level, near), state: fc.constantFrom(...PLACEABLE, state('air'), state('air')) }),
);

describe('physics skipped while a bot rests', () => {
  it('moves a bot exactly as mineflayer’s physics does, tick by tick, whatever happens to it between ticks', () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 30 }), (events) => {
        const twin = twins(new Vec3(0.5, 1, 0.5));
        for (const e of events) {
          if ('ticks' in e) {
            for (let i = 0; i < e.ticks; i++) {
              twin.tick();
              expect(described(twin.rested)).toEqual(described(twin.plain));
            }
            continue;
          }
          for (const body of [twin.plain, twin.rested]) {
            if ('control' in e) body.control[e.control] = e.on;
            else if ('push' in e) body.entity.velocity = body.entity.velocity.plus(new Vec3(...e.push));
            else if ('yaw' in e) body.entity.yaw = e.yaw;
          }
          if ('block' in e) {
            const [dx, y, dz] = e.block;
            const at = twin.plain.entity.position.floored();
            twin.world.setBlockStateId(new Vec3(at.x + dx, y, at.z + dz), e.state);
          }
        }
      }),
      { numRuns: 250 },
    );
  });

  it('simulates a bot standing still once, then not until its floor is removed, and then it falls', () => {
    const twin = twins(new Vec3(0.5, 1, 0.5));
    for (let i = 0; i < 40; i++) twin.tick();
    const settled = twin.simulations();
    for (let i = 0; i < 100; i++) twin.tick();
    expect(twin.simulations()).toBe(settled);
    expect(twin.rested.entity.position.y).toBe(1);

    twin.world.setBlockStateId(new Vec3(0, 0, 0), state('air'));
    for (let i = 0; i < 10; i++) twin.tick();
    expect(twin.simulations()).toBe(settled + 10);
    expect(twin.rested.entity.position.y).toBeLessThan(0.5);
    expect(described(twin.rested)).toEqual(described(twin.plain));
  });

  it('moves a resting bot that is pushed', () => {
    const twin = twins(new Vec3(0.5, 1, 0.5));
    for (let i = 0; i < 40; i++) twin.tick();
    for (const body of [twin.plain, twin.rested]) body.entity.velocity = new Vec3(0.4, 0.3, 0);
    for (let i = 0; i < 10; i++) twin.tick();
    expect(twin.rested.entity.position.x).toBeGreaterThan(1);
    expect(described(twin.rested)).toEqual(described(twin.plain));
  });
});
