import { type EntityInfo, WorldError } from '../contracts/index.js';
import { type RunContext, withContext } from '../registry/index.js';
import { ATTACK_COOLDOWN_MS, attackDistance } from '../world/actuator-rules.js';
import { attackCooldownMs, TICK_MS } from '../world/mob-rules/index.js';
import { STRIKE_REACH } from './fight-moves.js';

/** How often a flight looks behind it for a pursuer in reach: a game tick. */
const LOOK_BEHIND_MS = TICK_MS;

/** What a flight strikes back at, and what it remembers between its legs. */
interface Pursuit {
  /** Mob kinds that keep pace with the flight (a spider): struck when they catch up. */
  kinds: readonly string[];
  lastSwingAt: number;
  strikes: number;
}

/**
 * Runs a walk (`leg`, e.g. a goto, under the signal it is given) and strikes back at what it cannot outrun: while the
 * bot walks, a hostile of `kinds` (never a player) that comes within sword's reach with the held weapon at full charge
 * cuts the walk short, takes a sprinting hit (a sprint hit knocks a mob about twice as far as a plain one: a spider
 * lands some 5 blocks back) and the walk starts again. Returns when a walk ends; a walk's failure is its own.
 * The charge is counted from the flight's start (the weapon may have just been drawn or swung), so an uncharged blow
 * is never thrown: the bot runs on instead. Each strike is reported as progress, so the stuck detectors count a bot
 * that turned to strike as moving. A player on the embedded server does the same: it runs, turns to hit the spider
 * that caught up, and runs on.
 */
export async function walkStrikingBack(
  ctx: RunContext<unknown>,
  kinds: readonly string[],
  leg: (ctx: RunContext<unknown>) => Promise<void>,
): Promise<void> {
  if (kinds.length === 0 || !ctx.world.attack) return leg(ctx);
  const pursuit: Pursuit = { kinds, lastSwingAt: ctx.clock.now(), strikes: 0 };
  for (;;) {
    const pursuer = await walkUntilCaught(ctx, pursuit, leg);
    if (!pursuer) return;
    await strikeBack(ctx, pursuit, pursuer);
  }
}

/** The walk, cut short by the first pursuer in reach at full charge (returned), or run to its end (null). */
async function walkUntilCaught(
  ctx: RunContext<unknown>,
  pursuit: Pursuit,
  leg: (ctx: RunContext<unknown>) => Promise<void>,
): Promise<EntityInfo | null> {
  const { clock, signal } = ctx;
  const walk = new AbortController();
  let caught: EntityInfo | null = null;
  let timer: ReturnType<typeof clock.setTimeout> | undefined;
  const lookBehind = () => {
    caught = charged(ctx, pursuit) ? pursuerInReach(ctx, pursuit.kinds) : null;
    if (caught) walk.abort(new WorldError('preempted', `flee: turned to strike the ${caught.name}`));
    else timer = clock.setTimeout(lookBehind, LOOK_BEHIND_MS);
  };
  const onAborted = () => walk.abort(signal.reason);
  signal.addEventListener('abort', onAborted, { once: true });
  timer = clock.setTimeout(lookBehind, LOOK_BEHIND_MS);
  try {
    await leg(withContext(ctx, { signal: walk.signal }));
    return null;
  } catch (error) {
    if (!caught || signal.aborted) throw error;
    return caught;
  } finally {
    if (timer !== undefined) clock.clearTimeout(timer);
    signal.removeEventListener('abort', onAborted);
  }
}

/** Whether the held item's next swing is at full charge (the world's cooldown for it, a tick's margin for the server). */
function charged(ctx: RunContext<unknown>, pursuit: Pursuit): boolean {
  const swingGap = Math.max(attackCooldownMs(ctx.world.heldItem()) + TICK_MS, ATTACK_COOLDOWN_MS);
  return ctx.clock.now() - pursuit.lastSwingAt >= swingGap;
}

/** The nearest hostile of the kinds within sword's reach of the bot; never a player, whatever its name. */
function pursuerInReach(ctx: RunContext<unknown>, kinds: readonly string[]): EntityInfo | null {
  const feet = ctx.world.position();
  const inReach = ctx.world
    .entities()
    .filter((mob) => mob.kind === 'hostile' && kinds.includes(mob.name))
    .map((mob) => ({ mob, distance: attackDistance(feet, mob.position) }))
    .filter(({ distance }) => distance <= STRIKE_REACH)
    .sort((a, b) => a.distance - b.distance);
  return inReach[0]?.mob ?? null;
}

async function strikeBack(ctx: RunContext<unknown>, pursuit: Pursuit, pursuer: EntityInfo): Promise<void> {
  const { world, clock, signal } = ctx;
  try {
    await ctx.actuate('attack', () => world.attack!(pursuer.id, { signal, style: 'sprint', recover: false }));
  } catch (error) {
    // Out of reach (or dead) between the look and the swing: run on.
    if (signal.aborted || !(error instanceof WorldError) || error.code !== 'precondition_missing') throw error;
    return;
  }
  pursuit.lastSwingAt = clock.now();
  pursuit.strikes++;
  const detail = `struck the ${pursuer.name} (entity ${pursuer.id}) that caught up, and ran on`;
  ctx.progress(pursuit.strikes, undefined, { unit: 'strikes back', detail, judged: false });
}
