import { fightUntilGone, type RunContext, type TreeBindings, waitUntil, WorldError } from 'verbtree';
import { postOf, within } from './post.js';
import type { GuardAreaArgs } from './schema.js';

/** How close to the post counts as standing at it. */
const AT_POST = 2;

/**
 * For `forMs`: fight the nearest hostile mob inside the radius until none is left, walk back to the post,
 * and wait there (no command in flight: the capability idles) until another comes or the time is up.
 */
async function guard(ctx: RunContext<GuardAreaArgs>): Promise<void> {
  const { world, args, clock } = ctx;
  const post = postOf(args);
  if (!post) throw new WorldError('precondition_missing', 'guard_area: the post was never set');
  const until = clock.now() + args.forMs;
  const intruder = () =>
    world
      .entities()
      .filter((entity) => entity.kind === 'hostile' && within(entity.position, post, args.radius))
      .sort(
        (a, b) =>
          Math.hypot(a.position.x - post.x, a.position.z - post.z) -
          Math.hypot(b.position.x - post.x, b.position.z - post.z),
      )[0];
  const away = () => !within(world.position(), post, AT_POST);
  if (world.look)
    await ctx.actuate('look', () =>
      world.look!({ x: post.x + 0.5, y: post.y + 1, z: post.z + 0.5 }, { signal: ctx.signal }),
    );
  while (clock.now() < until) {
    const mob = intruder();
    if (mob) {
      // Dead, or driven out of the area: either way the area is clear of it.
      await fightUntilGone(ctx, mob, args.radius + 8, (now) => !within(now.position, post, args.radius));
      continue;
    }
    if (away()) {
      await ctx.actuate('goto', () => world.goto({ kind: 'near', ...post, range: 1 }, { signal: ctx.signal }));
      continue;
    }
    await waitUntil(ctx, () => clock.now() >= until || intruder() !== undefined || away(), until - clock.now());
  }
  // A fight that outlasts the watch (the bot backs away from the mobs between swings) still ends at the post.
  if (away()) await ctx.actuate('goto', () => world.goto({ kind: 'near', ...post, range: 1 }, { signal: ctx.signal }));
}

export const guardAreaBindings: TreeBindings<GuardAreaArgs> = {
  actions: { guard_area_guard: guard },
};
