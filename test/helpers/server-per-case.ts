import { afterEach } from 'vitest';
import { SystemClock } from '../../src/clock/index.js';
import { startEmbeddedWorld, type EmbeddedWorld } from '../../src/world/embedded/index.js';
import type { Scenario } from '../../src/world/scenario/index.js';

/**
 * A fresh embedded server for each test that asks for one (a parity case changes its world: a mob killed, a block
 * blown up), stopped after that test. Call at the top of a describe, outside any test.
 */
export function serverPerCase(): (scenario: Scenario, username: string) => Promise<ServerCase> {
  let embedded: EmbeddedWorld | null = null;
  afterEach(async () => {
    await embedded?.stop();
    embedded = null;
  });
  return async (scenario, username) => {
    embedded = await startEmbeddedWorld({ scenario, clock: new SystemClock() });
    const bot = await embedded.connectBot(username);
    return { bot, server: embedded.server };
  };
}

export interface ServerCase {
  bot: Awaited<ReturnType<EmbeddedWorld['connectBot']>>;
  server: EmbeddedWorld['server'];
}
