import type { Bot } from 'mineflayer';
import type { goals as PathfinderGoals } from 'mineflayer-pathfinder';
import type { Clock, TimerHandle } from '../../contracts/clock.js';
import { heightText } from '../../contracts/stands-on.js';
import { WorldError, type NavigationGoal, type PathStatus, type Vec3Like } from '../../contracts/world.js';
import { keepNodesInsideTheirCells } from './arrival-nodes.js';
import { towardFrontier } from './frontier-goal.js';
import { describeGoal, toPathfinderGoal, unmetArrival } from './goals.js';
import { hazardUnder } from './leave-hazard.js';
import { waterAhead, waterUnder } from './water-movements.js';

export interface NavigateOptions {
  goals: typeof PathfinderGoals;
  clock: Clock;
  /**
   * Without movement for this long the walk has stalled. New paths do not count:
   * pathfinder re-plans forever against an obstacle it cannot pass.
   */
  stallTimeoutMs: number;
  /** `why`: what ruled the path out, when navigation knows more than pathfinder's status. */
  onStatus: (status: PathStatus, why?: string) => void;
}

interface PathUpdate {
  status: 'success' | 'partial' | 'noPath' | 'timeout';
  path: Vec3Like[];
}

const STATUS: Record<PathUpdate['status'], PathStatus> = {
  success: 'planned',
  partial: 'partial',
  noPath: 'noPath',
  timeout: 'timeout',
};
const STALL_CHECK_MS = 250;
/** After a no-path verdict, how long the bot may stand at the closest point before the walk fails. */
const NO_PATH_IDLE_MS = 1000;
const MOVED_EPSILON = 0.05;
/** Horizontal speed (blocks a tick) below which a bot pathfinder has let go of has stopped sliding. */
const SETTLED_SPEED = 0.003;
const MAX_SETTLING_TICKS = 20;

/**
 * Walks to a goal with pathfinder, ending every known failure mode explicitly:
 * no path (pathfinder's own `goto` resolves when the path is empty), a think
 * timeout, a stall without movement (unbreakable blocks, partial paths), and an
 * arrival that is not at the goal. Resolves only when the bot stands at the goal.
 * The caller handles abort and disconnect by calling {@link stop}.
 */
export function navigate(
  bot: Bot,
  goal: NavigationGoal,
  options: NavigateOptions,
): { done: Promise<void>; stop: () => void } {
  let settle: (error?: WorldError) => void = () => {};
  const done = new Promise<void>((resolve, reject) => {
    settle = (error) => (error ? reject(error) : resolve());
  });
  const { clock } = options;
  const target = describeGoal(goal);
  const pathfinderGoal = towardFrontier(bot, toPathfinderGoal(options.goals, goal), goal);
  let finished = false;
  let stallTimer: TimerHandle | null = null;
  let lastProgressAt = clock.now();
  let lastPosition = bot.entity.position.clone();
  /** Set while pathfinder's latest verdict is "no path" but it still walks toward the closest point. */
  let noPathSince: number | null = null;
  /** Physics ticks since pathfinder called the goal reached, while the bot settles (see onGoalReached). */
  let settlingTicks = 0;
  /** Set once this walk's path was cut short of water (see keepOutOfWater): the water a failure then names. */
  let waterCut: Vec3Like | null = null;

  /** Ends this walk once: no more listeners or stall checks. False when it had already ended. */
  const detach = (): boolean => {
    if (finished) return false;
    finished = true;
    bot.removeListener('path_update', onPathUpdate);
    bot.removeListener('goal_reached', onGoalReached);
    bot.removeListener('path_stop', onPathStop);
    bot.removeListener('physicsTick', onSettling);
    bot.removeListener('chunkColumnLoad', searchAgain);
    if (stallTimer) clock.clearTimeout(stallTimer);
    return true;
  };

  const finish = (error?: WorldError) => {
    if (!detach()) return;
    if (error) {
      // Failures are noticed inside pathfinder's own event emit, after which it
      // stores the path it just announced; halting again once that emit has
      // returned keeps the failed walk from resuming.
      halt(bot);
      queueMicrotask(() => halt(bot));
    }
    settle(error);
  };

  /**
   * A walk that ends with the bot in lava or fire fails as `hazard`: where it burns matters more than where it was
   * going.
   */
  const notThere = (why: string) => {
    const hazard = hazardUnder(bot);
    const at = `${formatPosition(bot)}${hazard ? `, ${hazard}` : ''}`;
    return new WorldError(hazard ? 'hazard' : 'no_path', `cannot reach ${target}: ${why}; the bot is at ${at}`);
  };

  function onPathUpdate(update: PathUpdate) {
    // Pathfinder walks the array it announces, so the nodes are moved in place.
    keepNodesInsideTheirCells(update.path);
    if (update.status !== 'success' && keepOutOfWater(update)) return;
    options.onStatus(STATUS[update.status]);
    if (update.status !== 'noPath' && update.status !== 'timeout') {
      noPathSince = null;
      return;
    }
    if (unmetArrival(goal, bot) === null) return finish();
    // With a non-empty path pathfinder still walks to the closest point it can
    // reach and re-plans as chunks load there; the walk fails once the bot has
    // stood there for a moment without a better path (see checkStall).
    if (update.path.length > 0) {
      noPathSince ??= clock.now();
      return;
    }
    finish(notThere(update.status === 'noPath' ? 'pathfinder found no path' : 'pathfinder timed out while planning'));
  }

  /**
   * A path that does not reach the goal leads to the closest point pathfinder found, which pathfinder then walks to:
   * through water, that is a swim with no promise of a way out (pathfinder plans one only on a path to the goal, see
   * water-movements.ts), and a bot that cannot climb out stays and sinks. So a bot on dry ground follows such a path
   * only to a block short of the water (pathfinder walks the array it just announced, so cutting it in place is what it
   * follows): a search still running waits there for its verdict; a final one fails at once, naming the water.
   * True when the walk ended here.
   */
  function keepOutOfWater(update: PathUpdate): boolean {
    if (waterUnder(bot)) return false;
    const ahead = waterAhead(bot, update.path);
    if (ahead) {
      // A node short of the edge: a bot walking (sprinting) to the last dry node slides on past it when it stops.
      update.path.splice(Math.max(0, ahead.from - 1));
      waterCut = ahead.water;
      // With no path left pathfinder returns before it touches the controls, and the last step's stay held.
      if (update.path.length === 0) bot.clearControlStates();
    }
    if (update.status === 'partial' || waterCut === null) return false;
    const { x, y, z } = waterCut;
    const why = `no way out of the water at ${x},${y},${z}: pathfinder found no path to the goal, and the closest point it found lies in or across water whose banks there stand higher than a swimmer climbs (level with the water's top block), so the bot stays out of it`;
    options.onStatus(STATUS[update.status], why);
    finish(notThere(why));
    return true;
  }

  /**
   * Pathfinder's arrival, checked by the one rule once the body has settled: pathfinder calls a node reached while the
   * bot still moves (in the air after a step up, or sliding on from the grass edge down onto farmland's 15/16), so the
   * bot is followed, each physics tick, until it rests on the ground and has stopped, and judged there.
   */
  function onGoalReached() {
    if (pathfinderGoal.stoppedShort()) {
      // At the edge of the loaded world, not the goal (frontier-goal.ts): on again once more of it loads; a world that
      // never loads more ends the walk as a stall.
      bot.once('chunkColumnLoad', searchAgain);
      return;
    }
    options.onStatus('reached');
    if (settled()) return judgeArrival();
    settlingTicks = 0;
    bot.on('physicsTick', onSettling);
  }

  function searchAgain() {
    if (!finished) bot.pathfinder.setGoal(pathfinderGoal);
  }

  /** A bot that never settles (carried by flowing water) is judged where it is after a second of ticks. */
  function onSettling() {
    if (finished || (!settled() && ++settlingTicks < MAX_SETTLING_TICKS)) return;
    bot.removeListener('physicsTick', onSettling);
    judgeArrival();
  }

  function settled(): boolean {
    const { velocity, onGround } = bot.entity;
    return onGround && Math.hypot(velocity.x, velocity.z) < SETTLED_SPEED;
  }

  function judgeArrival() {
    const why = unmetArrival(goal, bot);
    if (why === null) finish();
    else finish(notThere(`pathfinder reported arrival but the bot does not stand at the goal: ${why}`));
  }

  function onPathStop() {
    options.onStatus('stopped');
    finish(notThere('the path was stopped'));
  }

  function checkStall() {
    stallTimer = null;
    if (finished) return;
    const position = bot.entity.position;
    if (position.distanceTo(lastPosition) > MOVED_EPSILON) {
      lastPosition = position.clone();
      lastProgressAt = clock.now();
    }
    if (
      noPathSince !== null &&
      !bot.pathfinder.isMoving() &&
      clock.now() - Math.max(noPathSince, lastProgressAt) >= NO_PATH_IDLE_MS
    ) {
      finish(notThere('pathfinder found no path; the bot walked to the closest point it could reach'));
      return;
    }
    if (clock.now() - lastProgressAt >= options.stallTimeoutMs) {
      finish(notThere(`no movement for ${options.stallTimeoutMs} ms (pathfinder stalled)`));
      return;
    }
    stallTimer = clock.setTimeout(checkStall, STALL_CHECK_MS);
  }

  if (unmetArrival(goal, bot) === null) {
    finish();
    return { done, stop: () => {} };
  }
  bot.on('path_update', onPathUpdate);
  bot.on('goal_reached', onGoalReached);
  bot.on('path_stop', onPathStop);
  stallTimer = clock.setTimeout(checkStall, STALL_CHECK_MS);
  bot.pathfinder.setGoal(pathfinderGoal);
  return {
    done,
    stop: () => {
      if (detach()) halt(bot);
    },
  };
}

function halt(bot: Bot): void {
  bot.pathfinder.stop();
  bot.pathfinder.setGoal(null);
  bot.clearControlStates();
}

/** Where the bot is, its height exact enough to tell farmland's 4.9375 from soul sand's 4.875. */
function formatPosition(bot: Bot): string {
  const { x, y, z } = bot.entity.position;
  return `${x.toFixed(1)},${heightText(y)},${z.toFixed(1)}`;
}
