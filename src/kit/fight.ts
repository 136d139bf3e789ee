import { type EntityInfo, type Vec3Like, WorldError } from '../contracts/index.js';
import type { RunContext } from '../registry/index.js';
import { ATTACK_COOLDOWN_MS, ATTACK_DAMAGE, attackDistance, MOB_HEALTH } from '../world/actuator-rules.js';
import { EYE_HEIGHT } from '../world/reach.js';
import { attackCooldownMs, TICK_MS } from '../world/mob-rules/index.js';
import { type BreakOffRule, watchBreakOff } from './break-off.js';
import { BACK_OFF_MS, type FightMove, nextFightMove, STRIKE_REACH } from './fight-moves.js';
import { waitUntil } from './wait-until.js';

/** Walk to within this of a mob that does not come to the bot (horizontally) before swinging. */
const CLOSE_IN = 1;
/** Three times what kills a mob: more hits than that land without effect. */
const MAX_HITS = 3 * Math.ceil(MOB_HEALTH / ATTACK_DAMAGE);
/** Walks in a row that leave the bot no closer before the mob counts as out of reach. */
const MAX_FRUITLESS_WALKS = 3;
const WALK_PAUSE_MS = 250;
/** A back-off that moved the bot less than this was blocked. */
const MOVED = 0.3;
/**
 * Waited past the held item's attack cooldown before a swing: the server counts the charge in its own ticks, and a
 * swing that reaches it a little sooner than the last one did must still find it full. Never sooner than
 * ATTACK_COOLDOWN_MS either: a mob's hurt immunity would swallow the hit.
 */
const CHARGE_MARGIN_MS = TICK_MS;

const horizontal = (a: Vec3Like, b: Vec3Like) => Math.hypot(a.x - b.x, a.z - b.z);

/** What the fight remembers from one move to the next. */
interface FightState {
  hits: number;
  fruitless: number;
  lastSwingAt: number;
  closest: number;
  closerAt: number;
  blockedBackOffs: number;
  /** Hits landed and steps the target came closer: the fight's progress while the bot holds its ground. */
  progress: number;
}

/**
 * Until the mob is gone from the world: each moment, the skill in fight-moves.ts picks a move (strike the nearest
 * mob in reach at full charge, critical or sprinting; back away from the crowd while the weapon recharges; wait for a
 * hostile that walks up; close in on one that does not), and this carries it out. The charge is the held item's attack
 * cooldown waited out on the run's clock since the last swing or the start of the fight (which may have just drawn
 * the weapon). It gives up once the mob is further than `within` from the bot, or `enough` says the fight is over (a
 * guard drives a mob out of its area). It breaks off, failing `preempted`, at the blow that takes the bot's health below
 * `breakOffRule.below`, or when a hostile it was not judged on (`breakOffRule.judgedOn`) comes within reach of the bot, the
 * move in progress cancelled (break-off.ts): a fight going worse than it was judged, or no longer the fight it was
 * judged to be, is judged again by whoever chose it. Its progress is each hit landed and each step the target comes closer, reported so the
 * stuck detectors judge the fight by it, not by the bot's position (a bot striking a mob as it walks back in stands
 * still by choice). The report is not judged for stalls: how many hits a mob takes is not known in advance, and a
 * guard fights between long waits.
 * Every verb that fights (attack_entity, guard_area) fights through this.
 */
export async function fightUntilGone(
  ctx: RunContext<unknown>,
  target: { id: number; name: string },
  within: number,
  enough: (mob: EntityInfo) => boolean = () => false,
  breakOffRule: BreakOffRule = {},
): Promise<void> {
  const { world, clock } = ctx;
  const where = () => world.entities().find((entity) => entity.id === target.id);
  const start = clock.now();
  const state: FightState = {
    hits: 0,
    fruitless: 0,
    lastSwingAt: start,
    closest: Infinity,
    closerAt: start,
    blockedBackOffs: 0,
    progress: 0,
  };
  const breakOff = watchBreakOff(ctx, target.name, breakOffRule);
  try {
    for (let mob = where(); mob && !enough(mob); mob = where()) {
      breakOff.check();
      const move = nextMove(ctx, mob, target, within, state);
      await carryOut(breakOff.ctx, move, target, state).catch((error: unknown) => {
        throw breakOff.explain(error);
      });
    }
  } finally {
    breakOff.end();
  }
}

/** This moment's move against `mob` and where the bot stands for it; throws when the mob got away. */
function nextMove(
  ctx: RunContext<unknown>,
  mob: EntityInfo,
  target: { id: number; name: string },
  within: number,
  state: FightState,
): { move: FightMove; feet: Vec3Like } {
  const { world, clock } = ctx;
  const feet = { ...world.position() };
  const away = horizontal(mob.position, feet);
  if (away > within)
    throw new WorldError(
      'precondition_missing',
      `the ${target.name} got away: ${away.toFixed(1)} blocks off, more than ${within}`,
    );
  if (away < state.closest - 0.1) {
    // The first sight after a hit is where the knock-back left it, not a step closer.
    if (state.closest !== Infinity) reportProgress(ctx, target, state, away);
    [state.closest, state.closerAt] = [away, clock.now()];
  }
  const swingGap = Math.max(attackCooldownMs(world.heldItem()) + CHARGE_MARGIN_MS, ATTACK_COOLDOWN_MS);
  const move = nextFightMove({
    feet,
    target: mob,
    others: world.entities().filter((entity) => entity.id !== mob.id),
    chargeInMs: state.lastSwingAt + swingGap - clock.now(),
    targetStalledMs: clock.now() - state.closerAt,
    blockedBackOffs: state.blockedBackOffs,
  });
  return { move, feet };
}

async function carryOut(
  ctx: RunContext<unknown>,
  { move, feet }: { move: FightMove; feet: Vec3Like },
  target: { id: number; name: string },
  state: FightState,
): Promise<void> {
  const { world, clock } = ctx;
  switch (move.kind) {
    case 'wait':
      await waitUntil(ctx, () => false, move.ms);
      return;
    case 'watch': {
      await lookAt(ctx, move.mob.position);
      await waitUntil(ctx, () => false, move.ms);
      return;
    }
    case 'strike':
      return strike(ctx, move, target, state);
    case 'step_in': {
      await lookAt(ctx, move.mob.position);
      await ctx.actuate('move', () => world.move('forward', move.ms, { signal: ctx.signal }));
      return;
    }
    case 'back_off': {
      // Facing the crowd, a step back leads away from it (a world without `look` steps back from where the bot faces).
      const eyes = { ...move.from, y: move.from.y + EYE_HEIGHT };
      if (world.look) await ctx.actuate('look', () => world.look!(eyes, { signal: ctx.signal }));
      await ctx.actuate('move', () => world.move(move.move, BACK_OFF_MS, { signal: ctx.signal }));
      state.blockedBackOffs = horizontal(world.position(), feet) < MOVED ? state.blockedBackOffs + 1 : 0;
      return;
    }
    case 'close_in': {
      const goal = {
        kind: 'near' as const,
        x: Math.floor(move.mob.position.x),
        y: Math.floor(feet.y),
        z: Math.floor(move.mob.position.z),
        range: CLOSE_IN,
      };
      const before = horizontal(move.mob.position, feet);
      await ctx
        .actuate('goto', () => world.goto(goal, { signal: ctx.signal }))
        .catch((error: unknown) => {
          // A walk that ended short of its goal still closed in when the mob is within the swing's reach: the fight goes
          // on from there. In a night's tech-tree run (server world 4) a close-in that stopped 0.4 blocks short was
          // taken for an archer out of reach, and the bot fled under its arrows. One that got nowhere near still ends.
          if (!(error instanceof WorldError) || error.code !== 'no_path' || !inStrikeReach(world, target.id))
            throw error;
        });
      if (horizontal(move.mob.position, world.position()) < before - 0.5) state.fruitless = 0;
      else if (++state.fruitless >= MAX_FRUITLESS_WALKS)
        throw new WorldError(
          'no_path',
          `attack_entity: ${state.fruitless} walks towards the ${target.name} got no closer`,
        );
      else await waitUntil(ctx, () => false, WALK_PAUSE_MS);
      // A walk up to a mob that does not come to the bot counts as coming closer.
      state.closerAt = clock.now();
      return;
    }
  }
}

/** Whether the mob stands within the swing's reach of the bot now. */
function inStrikeReach(world: RunContext<unknown>['world'], id: number): boolean {
  const mob = world.entities().find((entity) => entity.id === id);
  return mob !== undefined && attackDistance(world.position(), mob.position) <= STRIKE_REACH;
}

/** Looks at the eyes of a mob standing at `feet` (a world without `look` keeps its facing). */
async function lookAt(ctx: RunContext<unknown>, feet: Vec3Like): Promise<void> {
  const { world } = ctx;
  const eyes = { ...feet, y: feet.y + EYE_HEIGHT };
  if (world.look) await ctx.actuate('look', () => world.look!(eyes, { signal: ctx.signal }));
}

async function strike(
  ctx: RunContext<unknown>,
  move: Extract<FightMove, { kind: 'strike' }>,
  target: { id: number; name: string },
  state: FightState,
): Promise<void> {
  const { world, clock } = ctx;
  if (move.mob.id === target.id && state.hits >= MAX_HITS)
    throw new WorldError(
      'effects_unmet',
      `attack_entity: ${state.hits} hits landed and the ${target.name} is still alive`,
    );
  try {
    await ctx.actuate('attack', () =>
      world.attack!(move.mob.id, { signal: ctx.signal, style: move.style, recover: false }),
    );
    // The swing lands when the command ends (a critical one after its jump): the charge starts over then.
    state.lastSwingAt = clock.now();
    // A hit knocks the mob away: it has to walk back in, which is no reason to go after it.
    [state.closest, state.closerAt] = [Infinity, clock.now()];
    if (move.mob.id === target.id) state.hits++;
    // A hit on another mob of the crowd is the fight going on too.
    reportProgress(ctx, target, state);
  } catch (error) {
    // Moved out of reach (or died) between the look and the swing: look again.
    if (ctx.signal.aborted || !(error instanceof WorldError) || error.code !== 'precondition_missing') throw error;
  }
}

/** One more hit or step closer: the fight goes on, whether or not the bot moved. */
function reportProgress(ctx: RunContext<unknown>, target: { name: string }, state: FightState, away?: number): void {
  state.progress++;
  const where = away === undefined ? '' : `, ${away.toFixed(1)} blocks off`;
  const detail = `${state.hits} ${state.hits === 1 ? 'hit' : 'hits'} on the ${target.name}${where}`;
  ctx.progress(state.progress, undefined, { unit: 'hits and steps closer', detail, judged: false });
}
