import { afterAll, beforeAll } from 'vitest';
import { ManualClock, SystemClock } from '../../src/clock/index.js';
import { startEmbeddedWorld, type EmbeddedWorld } from '../../src/world/embedded/index.js';
import type { MineflayerWorld } from '../../src/world/mineflayer/index.js';
import { TICK_MS } from '../../src/world/mob-rules/index.js';
import type { Scenario } from '../../src/world/scenario/index.js';
import type { SimWorld } from '../../src/world/sim/index.js';
import { simWorldFromScenario } from '../../src/world/sim-scenario.js';

/** How a parity file drives and reads each world: the same `Side` made for SimWorld and for the embedded server. */
export interface SideMakers<Side> {
  sim(world: SimWorld, clock: ManualClock): Side | Promise<Side>;
  server(bot: MineflayerWorld, embedded: EmbeddedWorld, username: string): Side | Promise<Side>;
}

/**
 * One SimWorld (on a manual clock) and one embedded server with a bot named `username`, both from `scenario`, for the
 * calling test file: started in beforeAll, the server stopped in afterAll. Call at the top of a describe, outside any
 * test. Returns `both`, which plays a case on SimWorld and then on the server; the worlds carry on from case to case,
 * so the cases run in order on each alike.
 */
export function worldPair<Side>(
  scenario: Scenario,
  username: string,
  makers: SideMakers<Side>,
): <T>(play: (side: Side) => Promise<T>) => Promise<[T, T]> {
  let sim: Side | undefined;
  let server: Side | undefined;
  let embedded: EmbeddedWorld | undefined;
  beforeAll(async () => {
    const clock = new ManualClock();
    sim = await makers.sim(simWorldFromScenario(scenario, { clock }), clock);
    embedded = await startEmbeddedWorld({ scenario, clock: new SystemClock() });
    server = await makers.server(await embedded.connectBot(username), embedded, username);
  }, 60_000);
  afterAll(() => embedded?.stop());
  return async (play) => [await play(sim!), await play(server!)];
}

/** Runs the manual clock a tick at a time until `started` settles (SimWorld's actuators finish on its clock). */
export async function onClock<T>(clock: ManualClock, started: Promise<T>, limitTicks = 600): Promise<T> {
  let done = false;
  started.then(
    () => (done = true),
    () => (done = true),
  );
  for (let ticks = 0; !done && ticks < limitTicks; ticks++) await clock.advance(TICK_MS);
  return started;
}
