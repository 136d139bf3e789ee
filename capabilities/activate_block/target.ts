import {
  activationOf,
  type BlockState,
  blockKey,
  blockState,
  type Observation,
  type ObservationQuery,
  toggledProperty,
  type Vec3Like,
} from 'verbtree';
import type { ActivateBlockArgs } from './schema.js';

/** The state `state` names, and the property it sets. */
const WANTED = {
  open: ['open', true],
  closed: ['open', false],
  on: ['powered', true],
  off: ['powered', false],
} as const;

/** What a step aims at: the block's state, or why using it would do nothing. */
export type Aim = { ok: true; state: BlockState } | { ok: false; reason: string };

/** Each step's aim, fixed at dispatch so a retry after the click landed does not undo it. */
const aims = new WeakMap<object, Aim>();

export const cellOf = (args: ActivateBlockArgs): Vec3Like => ({ x: args.x, y: args.y, z: args.z });
const above = (args: ActivateBlockArgs): Vec3Like => ({ x: args.x, y: args.y + 1, z: args.z });

export function activateQuery(args: ActivateBlockArgs): ObservationQuery {
  return { states: [cellOf(args)], blocks: [above(args)] };
}

/**
 * What the block should be once the step is done, from the world at dispatch: the state asked for, or what
 * one use makes of it; or the world's refusal when using it would do nothing.
 */
export function aimOf(args: ActivateBlockArgs, pre?: Observation): Aim | null {
  if (!aims.has(args) && pre) {
    try {
      aims.set(args, { ok: true, state: predict(args, pre) });
    } catch (error) {
      aims.set(args, { ok: false, reason: (error as Error).message.replace(/^activate: /, '') });
    }
  }
  return aims.get(args) ?? null;
}

function predict(args: ActivateBlockArgs, pre: Observation): BlockState {
  const at = blockKey(cellOf(args));
  const now = pre.states?.[at] ?? null;
  if (args.state && now) {
    const [key, value] = WANTED[args.state];
    if (toggledProperty(now.name) !== key) {
      throw new TypeError(
        `"${args.state}" is a state of ${key === 'open' ? 'a door, trapdoor or fence gate' : 'a lever'}; the block at ${at} is ${now.name}`,
      );
    }
    if (now.properties[key] === value) return now;
    activationOf(at, now, null, null);
    return blockState(now.name, { [key]: value });
  }
  return activationOf(at, now, args.item ?? pre.heldItem, pre.blocks[blockKey(above(args))] ?? null);
}
