import { expect } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock, systemClock } from '../../src/clock/index.js';
import type { Clock } from '../../src/contracts/clock.js';
import type { PlanInput } from '../../src/contracts/plan.js';
import { assembleExecutor } from '../../src/executor/assemble.js';
import type { Journal } from '../../src/journal/journal.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import type { CapabilityRegistry } from '../../src/registry/registry.js';
import { SimWorld } from '../../src/world/sim/index.js';

/*
 * A plan of bot ann's, journaled as its holder runs it on a SimWorld, and the world a server restart brings back
 * when its last save held the plan's first steps: what the rollback tests judge the re-check against.
 */

const registry = createDefaultRegistry();
export const DIRT = { x: 1, y: 0, z: 0 };
export const rollbackPlan = {
  planId: 'p',
  intentId: 'i',
  steps: [
    { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 }, idempotencyKey: 'k-planks' },
    { stepId: 'sticks', type: 'craft_item', args: { item: 'stick', count: 4 }, idempotencyKey: 'k-sticks' },
    { stepId: 'dig', type: 'dig_block', args: { position: DIRT, block: 'dirt' }, idempotencyKey: 'k-dig' },
  ],
};

/** A log to craft from and a dirt block beside the bot. */
export const startWorld = (clock: Clock) =>
  SimWorld.create({ clock, inventory: { oak_log: 1 } }).setBlock(DIRT, 'dirt');

/** The world a restart brings back when the last save held the plan's first `saved` steps: they are done again. */
export async function worldAfterSave(saved: number): Promise<SimWorld> {
  const clock = new ManualClock();
  const world = startWorld(clock);
  if (saved === 0) return world;
  const { executor } = await assembleExecutor({ registry, world, clock });
  const run = executor.run({ ...rollbackPlan, steps: rollbackPlan.steps.slice(0, saved) });
  let ended = false;
  void run.result.then(() => (ended = true));
  await clock.runUntil(() => ended, 60_000);
  expect((await run.result).ok).toBe(true);
  return world;
}

/**
 * Runs the plan (the rollback plan unless given, on `world`, with the built-in capabilities unless given) as bot
 * ann's holder (queued, claimed, run under the lease), to its end (on `clock`'s time).
 */
export async function runAsAnn(
  journal: Journal,
  clock: Clock = systemClock,
  plan: PlanInput = rollbackPlan,
  world: SimWorld = startWorld(clock),
  capabilities: CapabilityRegistry = registry,
) {
  await journal.addBot({ name: 'ann' });
  await journal.enqueuePlan({ planId: plan.planId, intentId: plan.intentId, bot: 'ann', body: plan });
  const epoch = await journal.claimBot('ann', 'w1', 600_000);
  const fence = { bot: 'ann', epoch: epoch! };
  await journal.claimNextPlan(fence);
  const assembly = await assembleJournaled({
    registry: capabilities,
    world,
    clock,
    journal,
    kind: 'test',
    fence,
  });
  const run = await assembly.run(plan, { claimed: true });
  if (clock instanceof ManualClock) {
    let ended = false;
    void run.result.then(() => (ended = true));
    await clock.runUntil(() => ended, 60_000);
  }
  const result = await run.result;
  await assembly.recorder.flush();
  await assembly.close();
  expect(result.ok).toBe(true);
  return fence;
}
