import type { Bot } from 'mineflayer';
import type { Vec3 } from 'vec3';

/*
 * Every bot runs mineflayer's physics tick every 50 ms, acting or not, and each tick simulates the bot's body
 * (prismarine-physics: dozens of block lookups for its collisions, its water, its ground). A bot standing still on the
 * ground with no control pressed is at a fixed point of that simulation: the tick gives back the very state it was
 * given. In a worker holding 50 bots, most of them waiting for their next step, that is most of the simulations run.
 *
 * The simulation is a pure function of the state it is given (position, velocity, controls, effects, look, attributes)
 * and of the blocks around the body. Once a tick has given back its own input, the next tick with the same input, in
 * the same blocks, gives it back again: this returns it without simulating. Anything that could make the next tick
 * differ ends the rest: any field of the state that differs (a control pressed, a look, a knockback's velocity, a
 * teleport, an effect, armour), a block changed near the body, a chunk loaded or unloaded, or the bot's attributes
 * updated (mineflayer changes those in place). The physics tick itself still runs, still emits 'physicsTick' and
 * still sends the bot's position as mineflayer does: only the simulation it would have repeated is skipped.
 */

/** The state prismarine-physics simulates: its PlayerState's own fields (vectors, flags, numbers, its controls). */
type State = object;
type Simulate<W> = (state: State, world: W) => State;

type Kind = 'vector' | 'flat' | 'identity';

/**
 * A state's own fields as they were, in the order of its keys, each vector and flat object copied (the simulation
 * writes the state in place), with how each is compared: a vector and a flat object (the controls) field by field,
 * anything else by identity.
 */
interface Snapshot {
  fields: string[];
  kinds: Kind[];
  values: unknown[];
}

/** How far around the resting body (blocks) a changed block ends the rest: its box, its ground, and what it touches. */
const REACH = { horizontal: 2, below: 2, above: 3 };

export interface RestingSimulation<W> {
  simulate: Simulate<W>;
  /** Ends the rest: the next tick simulates. */
  disturb: () => void;
  /** Ends the rest if a block changed at `at` could touch the resting body. */
  blockChanged: (at: Vec3) => void;
}

/** Wraps a simulation so that it is skipped while the body rests at its fixed point (see above). */
export function restingSimulation<W>(simulate: Simulate<W>): RestingSimulation<W> {
  let rest: Snapshot | undefined;
  // The blocks the rest was found in: a caller simulating in other blocks (a planner's own world) simulates.
  let restWorld: W | undefined;
  const restingAt = () => {
    const at = rest?.fields.indexOf('pos') ?? -1;
    return at < 0 ? undefined : (rest!.values[at] as { x: number; y: number; z: number });
  };
  return {
    simulate: (state, world) => {
      if (rest !== undefined && world === restWorld && matches(state, rest)) return state;
      const before = snapshot(state);
      const after = simulate(state, world);
      rest = matches(after, before) ? before : undefined;
      restWorld = world;
      return after;
    },
    disturb: () => {
      rest = undefined;
    },
    blockChanged: (at) => {
      const pos = restingAt();
      if (pos === undefined) return;
      const dx = Math.abs(Math.floor(at.x) - Math.floor(pos.x));
      const dz = Math.abs(Math.floor(at.z) - Math.floor(pos.z));
      const dy = Math.floor(at.y) - Math.floor(pos.y);
      if (dx <= REACH.horizontal && dz <= REACH.horizontal && dy >= -REACH.below && dy <= REACH.above) rest = undefined;
    },
  };
}

const RESTING = Symbol.for('verbtree.restingPhysics');

/** Skips the physics simulation of `bot` while it rests (see above); once per bot. */
export function restIdlePhysics(bot: Bot): void {
  const physics = bot.physics as unknown as { simulatePlayer: Simulate<unknown>; [RESTING]?: true };
  if (physics[RESTING]) return;
  const resting = restingSimulation(physics.simulatePlayer);
  physics.simulatePlayer = resting.simulate;
  physics[RESTING] = true;
  bot.on('blockUpdate', (before: { position?: Vec3 } | null, after: { position?: Vec3 } | null) => {
    const at = after?.position ?? before?.position;
    if (at) resting.blockChanged(at);
  });
  bot.on('chunkColumnLoad', resting.disturb);
  bot.on('chunkColumnUnload', resting.disturb);
  const attributesUpdated = (packet: { entityId?: number }) => {
    if (packet.entityId === bot.entity?.id) resting.disturb();
  };
  bot._client.on('entity_update_attributes', attributesUpdated);
  bot._client.on('update_attributes', attributesUpdated);
}

function snapshot(state: State): Snapshot {
  const fields = Object.keys(state);
  const kinds: Kind[] = [];
  const values: unknown[] = [];
  for (const field of fields) {
    const value = (state as Record<string, unknown>)[field];
    if (isVector(value)) {
      kinds.push('vector');
      values.push({ x: value.x, y: value.y, z: value.z });
    } else if (isFlat(value)) {
      kinds.push('flat');
      values.push({ ...value });
    } else {
      // Attributes and other nested objects: by identity (mineflayer's in-place changes end the rest by their packet).
      kinds.push('identity');
      values.push(value);
    }
  }
  return { fields, kinds, values };
}

/*
 * The comparison runs on every tick of every resting bot, the most of a fleet. It compares each field by the kind its
 * snapshot found, in the order of the state's keys, where it judged each field's kind again and looked each up by
 * name, with an array and a closure made for it (`Object.entries`, `every`) and two more for the controls: 2.7 % of a
 * 150-bot worker's busy time in its plan phase. (`Object.keys` comes from V8's cache of the object's keys.)
 */

function matches(state: State, snap: Snapshot): boolean {
  const fields = Object.keys(state);
  if (fields.length !== snap.fields.length) return false;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field !== snap.fields[i]) return false;
    if (!same((state as Record<string, unknown>)[field], snap.kinds[i]!, snap.values[i])) return false;
  }
  return true;
}

function same(value: unknown, kind: Kind, was: unknown): boolean {
  if (kind === 'identity') return Object.is(value, was);
  if (kind === 'vector') {
    const vector = was as { x: number; y: number; z: number };
    return isVector(value) && value.x === vector.x && value.y === vector.y && value.z === vector.z;
  }
  return isFlat(value) && sameFlat(value, was as Record<string, unknown>);
}

function sameFlat(value: Record<string, unknown>, was: Record<string, unknown>): boolean {
  const fields = Object.keys(value);
  if (fields.length !== Object.keys(was).length) return false;
  for (const field of fields) if (value[field] !== was[field] || !Object.hasOwn(was, field)) return false;
  return true;
}

function isVector(value: unknown): value is { x: number; y: number; z: number } {
  if (typeof value !== 'object' || value === null) return false;
  const { x, y, z } = value as { x?: unknown; y?: unknown; z?: unknown };
  return typeof x === 'number' && typeof y === 'number' && typeof z === 'number';
}

function isFlat(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const field of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[field];
    if (v !== null && typeof v === 'object') return false;
  }
  return true;
}
