import { fightUntilGone, type RunContext, type TreeBindings, waitUntil, WorldError } from 'verbtree';
import { postOf, within } from './post.js';
import type { GuardAreaArgs } from './schema.js';

/** How close to the post counts as standing at it. */
const AT_POST = 2;

/**
 * For `forMs`: fight the nearest hostile mob inside the radius until none is left, walk back to the post,
 * and wait there (no command in flight: the capability idles) until another comes or the time is up; then kill
 * whatever is still inside and walk back.
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
  // Done is the area clear and the bot at its post, and the watch's end does not make it so: a fight that outlasts
  // the watch leaves the other mobs it struck alive inside, a mob only driven out walks back in, and the bot backs
  // away from the mobs between swings. So the guard ends by fighting every hostile still inside to its death.
  for (let mob = intruder(); mob || away(); mob = intruder()) {
    if (mob) await fightUntilGone(ctx, mob, args.radius + 8);
    else await ctx.actuate('goto', () => world.goto({ kind: 'near', ...post, range: 1 }, { signal: ctx.signal }));
  }
}

export const guardAreaBindings: TreeBindings<GuardAreaArgs> = {
  actions: { guard_area_guard: guard },
};
