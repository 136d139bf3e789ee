import type { Bot } from 'mineflayer';
import type { UnstuckMove } from '../../contracts/world.js';
import type { BotContext } from './bot-context.js';
import type { Command } from './command-runner.js';
import { Vec3 } from 'vec3';
import { isWaterFilled } from '../breath-rules.js';
import { waterUnder } from './water-movements.js';

const MOVE_CONTROLS: Record<UnstuckMove, 'jump' | 'back' | 'forward' | 'left' | 'right'> = {
  jump: 'jump',
  back: 'back',
  forward: 'forward',
  left: 'left',
  right: 'right',
};
/** How far ahead of the body (blocks, along its motion) a move looks for water to stop short of. */
const LOOK_AHEAD = 0.7;
/** How far a move may carry the bot (400 ms of walking is about 1.7 blocks): none starts toward water that close. */
const REACH = 1.8;
/** How deep below the next cell's floor a drop into water is still seen. */
const DROP_DEPTH = 4;

/**
 * Holds one movement control down for `durationMs`; cancelling releases it early. A bot on dry ground does not start
 * a move toward water within its reach and lets go if its motion nears water anyway (a drop over an edge included):
 * a blind move that ends in a pool the bot cannot climb out of turns a failed walk into a drowning.
 */
export function startMove(context: BotContext, move: UnstuckMove, durationMs: number): Command {
  const { bot, clock } = context;
  const control = MOVE_CONTROLS[move];
  const guarded = !waterUnder(bot);
  const heading = headingOf(bot, move);
  if (guarded && heading && waterWithin(bot, heading, REACH)) return { done: Promise.resolve(), cancel: () => {} };
  bot.setControlState(control, true);
  let release: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    const stopShortOfWater = () => {
      const { x, z } = bot.entity.velocity;
      const speed = Math.hypot(x, z);
      if (speed >= 0.01 && waterWithin(bot, { x: x / speed, z: z / speed }, LOOK_AHEAD)) end();
    };
    const end = () => {
      clock.clearTimeout(timer);
      bot.removeListener('physicsTick', stopShortOfWater);
      bot.setControlState(control, false);
      resolve();
    };
    const timer = clock.setTimeout(end, durationMs);
    if (guarded) bot.on('physicsTick', stopShortOfWater);
    release = end;
  });
  return { done, cancel: release };
}

/** The horizontal direction a control moves the bot (mineflayer faces -sin(yaw), -cos(yaw)); null for a jump. */
function headingOf(bot: Bot, move: UnstuckMove): { x: number; z: number } | null {
  const forward = { x: -Math.sin(bot.entity.yaw), z: -Math.cos(bot.entity.yaw) };
  switch (move) {
    case 'forward':
      return forward;
    case 'back':
      return { x: -forward.x, z: -forward.z };
    case 'right':
      return { x: -forward.z, z: forward.x };
    case 'left':
      return { x: forward.z, z: -forward.x };
    case 'jump':
      return null;
  }
}

/** Whether water lies along `heading` within `distance` blocks: at the bot's feet level, or as the first thing below. */
function waterWithin(bot: Bot, heading: { x: number; z: number }, distance: number): boolean {
  const { position } = bot.entity;
  const feet = Math.floor(position.y);
  for (let ahead = Math.min(LOOK_AHEAD, distance); ahead <= distance + 1e-9; ahead += 0.5) {
    const x = Math.floor(position.x + heading.x * ahead);
    const z = Math.floor(position.z + heading.z * ahead);
    for (let y = feet; y >= feet - DROP_DEPTH; y--) {
      const block = bot.blockAt(new Vec3(x, y, z), false);
      if (!block || block.boundingBox === 'block') break;
      if (isWaterFilled(block.name)) return true;
    }
  }
  return false;
}
