import { createDefaultRegistry } from '../../capabilities/index.js';
import { apiBot } from '../../src/api/bots.js';
import { createApiServer } from '../../src/api/server.js';
import { systemClock } from '../../src/clock/index.js';
import { loadTrees } from '../../src/executor/assemble.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import type { ClientEscalations } from '../../src/mcp/escalation.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { openTemp } from '../journal/helpers.js';

export const TOKEN = 'sim-token';
export const AUTH = { authorization: `Bearer ${TOKEN}` };
const registry = createDefaultRegistry();

/**
 * The API over one journaled SimWorld bot ("verbtree") on real time, behind TOKEN; its URL and how to close it
 * all. `escalations`: the bot's planner holds failures for the clients (serve --escalate-to-client).
 */
export async function serveSim(
  options: {
    inventory?: Record<string, number>;
    escalations?: ClientEscalations;
  } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const { escalations } = options;
  const { path, journal } = openTemp();
  const world = SimWorld.create({ clock: systemClock, inventory: options.inventory ?? {} });
  const assembly = await assembleJournaled({
    registry,
    world,
    clock: systemClock,
    journal,
    kind: 'serve',
    ...(escalations
      ? { planner: escalations.planner, policy: { escalation: { plannerTimeoutMs: escalations.plannerTimeoutMs } } }
      : {}),
  });
  const api = createApiServer({
    journal,
    journalPath: path,
    registry,
    token: TOKEN,
    selfRunnerId: assembly.process.id,
    bots: [apiBot('verbtree', assembly)],
    trees: (await loadTrees(registry)).catalog,
    botStateEveryMs: 0,
    ...(escalations ? { escalations } : {}),
  });
  const { url } = await api.listen(0);
  return {
    url,
    close: async () => {
      escalations?.releaseAll('the test ends');
      await api.close();
      await assembly.close();
    },
  };
}
