import { type EntityInfo, type Vec3Like, WorldError } from '../contracts/index.js';
import type { RunContext } from '../registry/index.js';
import { ATTACK_DAMAGE, ATTACK_REACH, attackDistance, MOB_HEALTH } from '../world/actuator-rules.js';
import { attackCooldownMs, TICK_MS } from '../world/mob-rules/index.js';
import { waitUntil } from './wait-until.js';

/** A mob knocked into the air lands within this long; it is hit again once it is back within reach. */
const SETTLE_MS = 600;
/** Walk to within this of the mob (horizontally) before swinging. */
const CLOSE_IN = 1;
/** Three times what kills a mob: more hits than that land without effect. */
const MAX_HITS = 3 * Math.ceil(MOB_HEALTH / ATTACK_DAMAGE);
/** Walks in a row that leave the bot no closer before the mob counts as out of reach. */
const MAX_FRUITLESS_WALKS = 3;
const WALK_PAUSE_MS = 250;
/**
 * Waited past the held item's attack cooldown before a swing: the server counts the charge in its own ticks, and a
 * swing that reaches it a little sooner than the last one did must still find it full.
 */
const CHARGE_MARGIN_MS = TICK_MS;

const horizontal = (a: Vec3Like, b: Vec3Like) => Math.hypot(a.x - b.x, a.z - b.z);

/**
 * Until the mob is gone from the world: walk up to it when it is out of reach, hit it when it is in
 * reach (hits knock it back, so the two alternate), each swing at full charge (the held item's attack cooldown
 * waited out on the run's clock since the last swing or the start of the fight, which may have just drawn the
 * weapon), and give up once it is further than `within` from
 * the bot, or `enough` says the fight is over (a guard drives a mob out of its area). No progress is
 * reported: how many hits a mob takes is not known in advance. Every verb that fights (attack_entity, guard_area)
 * fights through this.
 */
export async function fightUntilGone(
  ctx: RunContext<unknown>,
  target: { id: number; name: string },
  within: number,
  enough: (mob: EntityInfo) => boolean = () => false,
): Promise<void> {
  const { world } = ctx;
  const args = { within };
  const where = () => world.entities().find((entity) => entity.id === target.id);
  let hits = 0;
  let fruitless = 0;
  let lastSwingAt = ctx.clock.now();
  for (let mob = where(); mob && !enough(mob); mob = where()) {
    const feet = world.position();
    if (horizontal(mob.position, feet) > args.within)
      throw new WorldError(
        'precondition_missing',
        `the ${target.name} got away: ${horizontal(mob.position, feet).toFixed(1)} blocks off, more than ${args.within}`,
      );
    if (attackDistance(feet, mob.position) > ATTACK_REACH) {
      if (horizontal(mob.position, feet) <= CLOSE_IN + 1) {
        // Close, but up in the air after a hit: wait for it to come down.
        await waitUntil(ctx, () => !where() || Math.abs(where()!.position.y - feet.y) < 1, SETTLE_MS);
        continue;
      }
      const goal = {
        kind: 'near' as const,
        x: Math.floor(mob.position.x),
        y: Math.floor(feet.y),
        z: Math.floor(mob.position.z),
        range: CLOSE_IN,
      };
      const before = horizontal(mob.position, feet);
      await ctx.actuate('goto', () => world.goto(goal, { signal: ctx.signal }));
      if (horizontal(mob.position, world.position()) < before - 0.5) fruitless = 0;
      else if (++fruitless >= MAX_FRUITLESS_WALKS)
        throw new WorldError('no_path', `attack_entity: ${fruitless} walks towards the ${target.name} got no closer`);
      else await waitUntil(ctx, () => false, WALK_PAUSE_MS);
      continue;
    }
    if (hits >= MAX_HITS)
      throw new WorldError('effects_unmet', `attack_entity: ${hits} hits landed and the ${target.name} is still alive`);
    const chargedAt = lastSwingAt + attackCooldownMs(world.heldItem()) + CHARGE_MARGIN_MS;
    if (ctx.clock.now() < chargedAt) {
      await waitUntil(ctx, () => ctx.clock.now() >= chargedAt, chargedAt - ctx.clock.now());
      continue;
    }
    try {
      const swingAt = ctx.clock.now();
      await ctx.actuate('attack', () => world.attack!(target.id, { signal: ctx.signal }));
      lastSwingAt = swingAt;
      hits++;
    } catch (error) {
      // Moved out of reach (or died) between the look and the swing: look again.
      if (ctx.signal.aborted || !(error instanceof WorldError) || error.code !== 'precondition_missing') throw error;
    }
  }
}
