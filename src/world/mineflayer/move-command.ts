import type { UnstuckMove } from '../../contracts/world.js';
import type { BotContext } from './bot-context.js';
import type { Command } from './command-runner.js';

const MOVE_CONTROLS: Record<UnstuckMove, 'jump' | 'back' | 'forward' | 'left' | 'right'> = {
  jump: 'jump',
  back: 'back',
  forward: 'forward',
  left: 'left',
  right: 'right',
};

/** Holds one movement control down for `durationMs`; cancelling releases it early. */
export function startMove(context: BotContext, move: UnstuckMove, durationMs: number): Command {
  const { bot, clock } = context;
  const control = MOVE_CONTROLS[move];
  bot.setControlState(control, true);
  let release: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    const timer = clock.setTimeout(() => {
      bot.setControlState(control, false);
      resolve();
    }, durationMs);
    release = () => {
      clock.clearTimeout(timer);
      bot.setControlState(control, false);
    };
  });
  return { done, cancel: release };
}
