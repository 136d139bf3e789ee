import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { loginTimersPlugin } from '../../../src/world/embedded/plugins/login-timers.js';
import type { SquidPlayer } from '../../../src/world/embedded/squid-types.js';

/*
 * flying-squid's login starts a tab-list interval in `setXp`'s synchronous run and never clears it; the plugin records
 * the intervals of that run as the player's. Two logins in one synchronous run must each keep their own, and leave the
 * process's `setInterval` as it was.
 */

const native = globalThis.setInterval;
const started: ReturnType<typeof setInterval>[] = [];

/** A player as the plugin sees it: an emitter whose `setXp` starts one interval, as flying-squid's login does. */
function loggingIn(): SquidPlayer {
  const player = new EventEmitter() as unknown as SquidPlayer;
  player.setXp = () => {
    started.push(setInterval(() => undefined, 60_000));
  };
  loginTimersPlugin.player!(player, undefined as never);
  return player;
}

/** The microtasks of the logins' run drained. */
const ticks = () => Promise.resolve();

afterEach(() => {
  for (const interval of started.splice(0)) clearInterval(interval);
  expect(globalThis.setInterval).toBe(native);
});

describe('login timers', () => {
  it("two logins in one synchronous run each clear their own interval, and setInterval is the process's again", async () => {
    const [first, second] = [loggingIn(), loggingIn()];
    first.setXp();
    second.setXp();
    await ticks();
    expect(globalThis.setInterval).toBe(native);
    // An interval started after the logins belongs to no player: the first one leaving does not clear it.
    const later = setInterval(() => undefined, 60_000);
    started.push(later);
    first.emit('disconnected');
    expect(isCleared(later)).toBe(false);
    // Each player's own interval is cleared when it leaves, the other's left running.
    const [firstInterval, secondInterval] = started as [NodeJS.Timeout, NodeJS.Timeout];
    expect(isCleared(firstInterval)).toBe(true);
    expect(isCleared(secondInterval)).toBe(false);
    second.emit('disconnected');
    expect(isCleared(secondInterval)).toBe(true);
  });
});

/** Node marks a cleared timer by setting its `_destroyed`. */
function isCleared(interval: NodeJS.Timeout): boolean {
  return (interval as unknown as { _destroyed: boolean })._destroyed;
}
