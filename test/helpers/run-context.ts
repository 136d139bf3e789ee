import type { Clock } from '../../src/contracts/clock.js';
import type { WorldPort } from '../../src/contracts/world.js';
import type { RunContext } from '../../src/registry/index.js';

/** A capability's context outside the executor: no arguments, never aborted, commands run as they are. */
export function bareRunContext(world: WorldPort, clock: Clock): RunContext {
  return {
    args: {},
    world,
    signal: new AbortController().signal,
    clock,
    actuate: (_command, act) => act(),
    progress: () => {},
  };
}
