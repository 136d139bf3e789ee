import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { Clock, TimerHandle } from '../../contracts/clock.js';
import { WorldError } from '../../contracts/world.js';
import { describeHazardAt, nearestSafeCell } from '../hazards.js';
import { blockInfo } from './observe.js';

/** How far (blocks, horizontally) the way out looks for a cell to stand unhurt, as the safety monitor does. */
const ESCAPE_RADIUS = 4;

/** The hazard the bot stands in or on, "in lava at 4,4,0", or null. */
export function hazardUnder(bot: Bot): string | null {
  return describeHazardAt((p) => blockInfo(bot, p), bot.entity.position);
}

/**
 * Gets a bot out of the hazard it stands in, before pathfinder takes over:
 * pathfinder swims only in water, so in lava it holds no control at all and
 * the walk stalls while the bot burns. This faces the nearest cell where the
 * bot can stand unhurt and holds forward and jump (which climbs a bank out of
 * a liquid) until the bot stands outside every hazard. Resolves at once when
 * the bot is not in one; fails after `timeoutMs` naming where it still burns.
 */
export function leaveHazard(bot: Bot, clock: Clock, timeoutMs: number): { done: Promise<void>; stop: () => void } {
  if (hazardUnder(bot) === null) return { done: Promise.resolve(), stop: () => {} };
  const target = nearestSafeCell((p) => blockInfo(bot, p), bot.entity.position, ESCAPE_RADIUS);
  let timer: TimerHandle | null = null;
  let finish: (error?: WorldError) => void = () => {};
  const done = new Promise<void>((resolve, reject) => {
    finish = (error) => {
      bot.removeListener('physicsTick', steer);
      if (timer) clock.clearTimeout(timer);
      timer = null;
      bot.clearControlStates();
      if (error) reject(error);
      else resolve();
    };
  });
  function steer(): void {
    const hazard = hazardUnder(bot);
    if (hazard === null && bot.entity.onGround) return finish();
    if (!target) return;
    const aim = new Vec3(target.x + 0.5, bot.entity.position.y, target.z + 0.5);
    void bot.lookAt(aim.offset(0, bot.entity.height, 0), true);
    bot.setControlState('forward', true);
    bot.setControlState('jump', true);
  }
  const where = hazardUnder(bot)!;
  timer = clock.setTimeout(() => {
    const still = hazardUnder(bot) ?? where;
    const why = target
      ? `could not climb out to ${target.x},${target.y},${target.z}`
      : `no cell within ${ESCAPE_RADIUS} blocks to stand unhurt`;
    finish(new WorldError('hazard', `cannot get out: the bot is ${still}; ${why} within ${timeoutMs} ms`));
  }, timeoutMs);
  bot.on('physicsTick', steer);
  steer();
  return { done, stop: () => finish() };
}
