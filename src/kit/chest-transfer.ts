import { type Expectation, type Observation, WorldError } from '../contracts/index.js';
import type { GuardContext, GuardResult, TreeBindings } from '../registry/index.js';
import { withinReach } from '../world/reach.js';
import { at, type ChestArgs, CHEST_SEARCH, chestHolds, chestOf } from './chest.js';

/** store_items moves items into the chest (deposit), take_items out of it (withdraw). */
export type TransferDirection = 'deposit' | 'withdraw';

const APPROACH_RANGE = 2;

/**
 * The chest stands where the step means (else guard_failed, or precondition_missing when none is in
 * sight), and the side giving the items holds enough of them (else precondition_missing).
 */
export function transferGuard(direction: TransferDirection) {
  return ({ observation }: GuardContext, args: ChestArgs): GuardResult => {
    const chest = chestOf(args, observation);
    if (!chest) {
      return {
        ok: false,
        reason: `no chest in the open within ${CHEST_SEARCH} blocks: place one (place_block with "chest") or name one with "chest"`,
        missing: { predicate: 'near_block', detail: { block: 'chest' } },
      };
    }
    const held = chestHolds(observation, chest, args.item);
    if (held === null) return { ok: false, reason: `the block at ${at(chest)} is no chest, barrel or trapped chest` };
    if (direction === 'deposit') {
      const have = observation.inventory[args.item] ?? 0;
      if (have < args.count)
        return {
          ok: false,
          reason: `the pack holds ${have} ${args.item}, ${args.count} to store`,
          missing: { predicate: 'has_item', detail: { item: args.item, count: args.count - have } },
        };
    } else if (held !== undefined && held < args.count) {
      return {
        ok: false,
        reason: `the chest at ${at(chest)} holds ${held} ${args.item}, ${args.count} to take`,
        missing: { predicate: 'chest_holds', detail: { item: args.item, count: args.count - held } },
      };
    }
    return { ok: true };
  };
}

/**
 * Done means, against the world: the pack holds `count` fewer (store) or more (take) of the item than at
 * dispatch, and the chest that many more or fewer. Where the world cannot read a chest (a server other
 * than the embedded one), the chest's side is "not observed" and the step cannot end ok.
 */
export function transferExpects(direction: TransferDirection) {
  return (pre: Observation, args: ChestArgs): Expectation[] => {
    const { item, count } = args;
    const inPack = pre.inventory[item] ?? 0;
    const chest = chestOf(args, pre);
    const inChest = chest ? chestHolds(pre, chest, item) : null;
    const pack: Expectation =
      direction === 'deposit'
        ? { kind: 'inventory', item, atMost: Math.max(0, inPack - count) }
        : { kind: 'inventory', item, atLeast: inPack + count };
    if (!chest) return [pack];
    const base = inChest ?? 0;
    const box: Expectation =
      direction === 'deposit'
        ? { kind: 'container', at: chest, item, atLeast: base + count }
        : { kind: 'container', at: chest, item, atMost: Math.max(0, base - count) };
    return [pack, box];
  };
}

function chestFor(args: ChestArgs) {
  const chest = chestOf(args);
  if (!chest) throw new WorldError('precondition_missing', `no chest was in sight when the step started`);
  return chest;
}

/** The tree's leaves: whether the chest is within reach, walking up to it, and the transfer itself. */
export function transferBindings<Args extends ChestArgs>(
  verb: string,
  direction: TransferDirection,
): TreeBindings<Args> {
  return {
    conditions: {
      [`${verb}_chest_in_reach`]: ({ world, args }) => withinReach(world.position(), chestFor(args)),
    },
    actions: {
      [`${verb}_approach_chest`]: (ctx) => {
        const goal = { kind: 'near' as const, ...chestFor(ctx.args), range: APPROACH_RANGE };
        return ctx.actuate('goto', () => ctx.world.goto(goal, { signal: ctx.signal }));
      },
      [`${verb}_transfer`]: (ctx) => {
        const { world, args } = ctx;
        const chest = chestFor(args);
        const move = world[direction]?.bind(world);
        if (!move)
          throw new WorldError('guard_failed', `${verb}: the ${world.kind} world has no ${direction} actuator`);
        return ctx.actuate(direction, () => move(chest, args.item, args.count, { signal: ctx.signal }));
      },
    },
  };
}
