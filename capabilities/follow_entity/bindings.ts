import { type RunContext, targetOf, type TreeBindings, type Vec3Like, waitUntil, WorldError } from 'verbtree';
import type { FollowEntityArgs } from './schema.js';

const distance = (a: Vec3Like, b: Vec3Like) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
/** Walks in a row that leave the bot no closer before the entity counts as out of reach. */
const MAX_FRUITLESS_WALKS = 3;
const WALK_PAUSE_MS = 250;

/**
 * For `forMs`: face the entity, then walk up to it whenever it is further than `range`, and otherwise
 * wait where the bot is (no command in flight: the capability `idles`). Ends ok when the time is up;
 * fails when the entity is gone (dead, or out of sight) or cannot be reached; a cancelled run aborts the
 * wait, and the step ends `aborted`.
 */
async function follow(ctx: RunContext<FollowEntityArgs>): Promise<void> {
  const { world, args, clock } = ctx;
  const target = targetOf(args);
  if (!target)
    throw new WorldError('precondition_missing', 'follow_entity: nothing to follow was in sight when the step started');
  const until = clock.now() + args.forMs;
  const where = () => world.entities().find((entity) => entity.id === target.id);
  const gone = () =>
    new WorldError('precondition_missing', `the ${target.name} (entity ${target.id}) is gone: dead, or out of sight`);
  const first = where();
  if (!first) throw gone();
  if (world.look) await ctx.actuate('look', () => world.look!(first.position, { signal: ctx.signal }));
  let fruitless = 0;
  while (clock.now() < until) {
    const entity = where();
    if (!entity) throw gone();
    const before = distance(entity.position, world.position());
    if (before > args.range) {
      const { x, y, z } = entity.position;
      const goal = {
        kind: 'near' as const,
        x: Math.floor(x),
        y: Math.floor(y),
        z: Math.floor(z),
        range: Math.max(1, args.range - 1),
      };
      await ctx.actuate('goto', () => world.goto(goal, { signal: ctx.signal }));
      // A walk that ended no closer (the entity moved on, or the walk did nothing): pause, and give up after a few.
      if (distance(entity.position, world.position()) < before - 0.5) fruitless = 0;
      else if (++fruitless >= MAX_FRUITLESS_WALKS)
        throw new WorldError('no_path', `follow_entity: ${fruitless} walks towards the ${target.name} got no closer`);
      else await waitUntil(ctx, () => false, WALK_PAUSE_MS);
      continue;
    }
    await waitUntil(
      ctx,
      () => clock.now() >= until || !where() || distance(where()!.position, world.position()) > args.range,
      until - clock.now(),
    );
  }
}

export const followEntityBindings: TreeBindings<FollowEntityArgs> = {
  actions: { follow_entity_follow: follow },
};
