import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { goalPlanner } from '../../examples/goal-planner/goal-planner.js';
import { assembleExecutor } from '../../src/executor/assemble.js';
import { startEmbeddedWorld, type EmbeddedWorld } from '../../src/world/embedded/index.js';
import { loadScenario } from '../../src/world/scenario/index.js';

let world: EmbeddedWorld;

beforeAll(async () => {
  world = await startEmbeddedWorld({ scenario: await loadScenario('examples/scenarios/stone-age.json') });
});

afterAll(async () => {
  await world?.stop();
});

describe('the reference goal planner on the embedded server', () => {
  it('takes a bot with an empty inventory to a stone pickaxe: logs, a wooden pickaxe, cobblestone, verified on the server', async () => {
    const bot = await world.connectBot('tech');
    const { executor } = await assembleExecutor({
      registry: createDefaultRegistry(),
      world: bot,
      planner: goalPlanner(),
    });
    const result = await executor.run({
      id: 'stone-age',
      source: 'user',
      goal: 'have stone_pickaxe',
      urgency: 0.5,
      safety: { allowed: true },
    }).result;
    expect(result.ok, `${result.code}: ${result.detail}`).toBe(true);
    expect(world.server.player('tech')!.inventory.stone_pickaxe).toBe(1);
  }, 180_000);
});
