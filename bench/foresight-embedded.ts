import { createDefaultRegistry } from '../capabilities/index.js';
import { ManualClock, systemClock } from '../src/clock/index.js';
import { queryFor, unmetExpectations } from '../src/contracts/expectation.js';
import type { WorldPort } from '../src/contracts/world.js';
import { assembleLoaded, loadTrees } from '../src/executor/assemble.js';
import type { ExecutorEvent } from '../src/executor/events.js';
import { forkExplorer, type ForkPool } from '../src/foresight/index.js';
import type { GeneratedHardCase, HardCase } from '../src/foresight/hard-cases.js';
import type { BranchExplorer, ScoredBranch } from '../src/recovery/branches.js';
import { startEmbeddedWorld } from '../src/world/embedded/index.js';
import { botOf } from '../src/world/mineflayer/index.js';
import { parseScenario, type SingleBlock } from '../src/world/scenario/index.js';

/*
 * Issue 33 §4, "with a few on the embedded server": a drawn SimWorld hard case mirrored onto flying-squid and run by
 * a real mineflayer bot on real time, without and with branch exploration, each on a server of its own so that one
 * run's digging and building never reach the other's.
 */

/** One run of a hard case, in either world. */
export interface CaseRun {
  description: string;
  ok: boolean;
  /** It ended ok while the step's own expectations do not hold in the world. */
  falseOk: boolean;
  timeToTruthMs: number;
  forkWallMs: number;
  forkCpuMs: number;
}

/** forkExplorer, timed: the real time its forks took and the process's CPU meanwhile (their threads are in it). */
export function measuredExplorer(pool?: ForkPool): {
  explorer: BranchExplorer;
  pending: () => Promise<unknown> | null;
  used: () => { wallMs: number; cpuMs: number };
} {
  const inner = forkExplorer(pool ? { pool } : {});
  let pending: Promise<ScoredBranch[]> | null = null;
  let wallMs = 0;
  let cpuMs = 0;
  const explorer: BranchExplorer = {
    explore(request) {
      const wall = performance.now();
      const cpu = process.cpuUsage();
      pending = inner.explore(request).finally(() => {
        wallMs += performance.now() - wall;
        const spent = process.cpuUsage(cpu);
        cpuMs += (spent.user + spent.system) / 1000;
        pending = null;
      });
      return pending;
    },
  };
  return { explorer, pending: () => pending, used: () => ({ wallMs, cpuMs }) };
}

/** Whether the step's expectations, as fixed at its dispatch, hold in the world now. */
export async function expectationsHold(events: readonly ExecutorEvent[], world: WorldPort): Promise<boolean> {
  const expects = events.find((e) => e.type === 'step.expects' && e.stepId === 'stuck');
  const expectations = expects?.type === 'step.expects' ? expects.expectations : [];
  return unmetExpectations(expectations, await world.observe(queryFor(expectations))).length === 0;
}

/** The superflat's feet level: SimWorld's y=0 is y=5 on the server (grass at 4, as SimWorld's at -1). */
const RAISE = 5;
/** The island a hard case stands on reaches 12 blocks from the bot; its cells from the trench floor up to above the wall. */
const MIRROR_RADIUS = 12;
const MIRROR_LOW = -4;
const MIRROR_HIGH = 6;
const SUPERFLAT = ['bedrock', 'dirt', 'dirt', 'dirt', 'grass_block'];
/** A run's own time limit on real time: far past any case's way out, so a run that ends there is counted as failed. */
const RUN_LIMIT_MS = 90_000;

/**
 * Obsidian is a SimWorld case's unbreakable block (its `unbreakable`); a vanilla server lets a bare hand break it in
 * minutes, so the mirror uses bedrock, which nothing breaks there.
 */
const onServer = (name: string) => (name === 'obsidian' ? 'bedrock' : name);

/**
 * The case's world as a scenario: every cell of the island that differs from the superflat, and where SimWorld's
 * island ends in the void, a bedrock ring too high to climb, so that no way round the case opens on the server.
 */
export function serverScenarioOf(hard: HardCase) {
  const blocks: SingleBlock[] = [];
  for (let x = -MIRROR_RADIUS; x <= MIRROR_RADIUS; x++)
    for (let y = MIRROR_LOW; y <= MIRROR_HIGH; y++)
      for (let z = -MIRROR_RADIUS; z <= MIRROR_RADIUS; z++) {
        const name = onServer(hard.world.blockAt({ x, y, z })?.name ?? 'air');
        if (name !== (SUPERFLAT[y + RAISE] ?? 'air')) blocks.push({ x, y: y + RAISE, z, block: name });
      }
  const edge = MIRROR_RADIUS + 1;
  const ring = (from: [number, number], to: [number, number]) => ({
    from: { x: from[0], y: RAISE, z: from[1] },
    to: { x: to[0], y: RAISE + MIRROR_HIGH, z: to[1] },
    block: 'bedrock',
  });
  return parseScenario({
    name: hard.name,
    spawn: { x: 0, y: RAISE, z: 0 },
    timeOfDay: 6000,
    blocks,
    fills: [
      ring([-edge, -edge], [edge, -edge]),
      ring([-edge, edge], [edge, edge]),
      ring([-edge, -edge], [-edge, edge]),
      ring([edge, -edge], [edge, edge]),
    ],
    bot: { inventory: hard.world.inventory(), health: 20, food: 20 },
    mobs: [],
  });
}

/** The case's step with its cells raised to the server's ground. */
function raised(step: HardCase['step']): HardCase['step'] {
  const target = step.args['target'] as { kind?: string; y?: number } | undefined;
  if (target?.kind !== 'block' || target.y === undefined) return step;
  return { ...step, args: { ...step.args, target: { ...target, y: target.y + RAISE } } };
}

const registry = createDefaultRegistry();

/** Runs one drawn case on a fresh embedded server, a real bot on real time; time to truth is the run's real time. */
export async function runOnServer(generated: GeneratedHardCase, branches: boolean): Promise<CaseRun> {
  const hard = generated.make(new ManualClock());
  const loaded = await loadTrees(registry);
  const world = await startEmbeddedWorld({ scenario: serverScenarioOf(hard), clock: systemClock });
  try {
    const bot = await world.connectBot('seer');
    await botOf(bot).waitForChunksToLoad();
    const { explorer, used } = measuredExplorer();
    const { executor, runner } = assembleLoaded({
      registry,
      world: bot,
      clock: systemClock,
      loaded,
      explorer,
      recovery: { branches: { enabled: branches } },
    });
    const events: ExecutorEvent[] = [];
    executor.events.on('event', (event) => events.push(event));
    const plan = { planId: hard.name, intentId: hard.name, steps: [{ stepId: 'stuck', ...raised(hard.step) }] };
    const started = performance.now();
    const result = await executor.run(plan, { signal: AbortSignal.timeout(RUN_LIMIT_MS) }).result;
    const timeToTruthMs = performance.now() - started;
    await runner.shutdown();
    const held = await expectationsHold(events, bot);
    return {
      description: hard.description,
      ok: result.ok,
      falseOk: result.ok && !held,
      timeToTruthMs,
      forkWallMs: used().wallMs,
      forkCpuMs: used().cpuMs,
    };
  } finally {
    await world.stop();
  }
}
