import type { Vec3Like } from '../contracts/index.js';
import type { RunContext } from '../registry/index.js';
import { waitUntil } from './wait-until.js';

/** Long enough to leave the ground, short enough not to jump again on landing. */
const JUMP_HOLD_MS = 300;
/** A vanilla jump is about 12 ticks in the air; the next one starts after it, with a tick to spare. */
const JUMP_CYCLE_MS = 650;
/**
 * The feet clear the cell below within about 4 ticks of the jump; wait a little longer before calling it a failed jump.
 */
const LIFT_WAIT_MS = 500;

const feetCell = (p: Vec3Like): Vec3Like => ({ x: Math.floor(p.x), y: Math.floor(p.y), z: Math.floor(p.z) });

/**
 * One jump with a block of `item` (held already) placed into the cell the feet just left, as a player rises in place
 * (pillar_up; leave_shelter out of a hole); true when the bot now stands a block higher.
 */
export async function jumpAndPlace(ctx: RunContext<unknown>, item: string): Promise<boolean> {
  const { world, clock } = ctx;
  const startedAt = clock.now();
  const below = feetCell(world.position());
  const jumping = ctx.actuate('move.jump', () => world.move('jump', JUMP_HOLD_MS, { signal: ctx.signal }));
  try {
    if (await waitUntil(ctx, () => world.position().y >= below.y + 1, LIFT_WAIT_MS)) {
      await ctx.actuate('place', () => world.place(below, item, { signal: ctx.signal }));
    }
  } finally {
    await jumping.catch(() => undefined);
    await waitUntil(ctx, () => clock.now() - startedAt >= JUMP_CYCLE_MS, JUMP_CYCLE_MS);
  }
  return Math.floor(world.position().y) >= below.y + 1;
}
