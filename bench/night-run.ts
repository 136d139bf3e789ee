import { createDefaultRegistry } from '../capabilities/index.js';
import { SystemClock } from '../src/clock/index.js';
import { assembleLoaded, type loadTrees } from '../src/executor/assemble.js';
import { deriveSeed, mulberry32 } from '../src/random.js';
import { startEmbeddedWorld } from '../src/world/embedded/index.js';
import { parseScenario } from '../src/world/scenario/index.js';
import { HEALTH_SAMPLE_MS, watchHealth } from './health-watch.js';

/**
 * One run of the night bench (night.bench.ts): a fresh embedded server at midnight with the placement's mobs, a bot
 * at full health with the row's kit, the plan (wear the armour, fell the logs) to its end, then the server stopped.
 * Nothing outlives a run, so runs side by side (`--jobs`) or one after another share no world state.
 */

const TRUNK = { x: 12, z: 0 };
const LOGS = 3;
/** Mobs are put this far from the bot's spawn (0,5,0), at seeded angles. */
const NEAREST = 8;
const FARTHEST = 16;

export interface Kit {
  key: string;
  inventory: Record<string, number>;
  wear: string[];
}

export interface Encounter {
  key: string;
  mobs: string[];
}

/** Where a run's wall time went (ms): the server's start, the bot's join, the encounter (the plan), the teardown. */
export interface Phases {
  start: number;
  join: number;
  encounter: number;
  teardown: number;
}

export interface RunFigures {
  /** The run's scenario: night-<encounter>-<kit>-<placement>. */
  name: string;
  completed: boolean;
  /** The plan's failure code when it did not complete (`preempted`, `escalation_exhausted`, …). */
  failure?: string;
  deaths: number;
  damage: number;
  seconds: number;
  phases: Phases;
}

/** The mobs of placement `p`: each at a seeded angle and distance from the spawn, on the grass (y 5). */
export function place(encounter: Encounter, p: number) {
  const random = mulberry32(deriveSeed(p, encounter.key));
  return encounter.mobs.map((name) => {
    const angle = random() * 2 * Math.PI;
    const distance = NEAREST + random() * (FARTHEST - NEAREST);
    return { name, x: Math.round(Math.cos(angle) * distance), y: 5, z: Math.round(Math.sin(angle) * distance) };
  });
}

/** How a run shares the process with the runs beside it (`--jobs`). */
export interface SideBySide {
  /** The server's start and the bot's join go through this (one at a time across the runs). */
  setUp<T>(work: () => Promise<T>): Promise<T>;
  /** The encounter goes through this (the bench reads the event loop's delay while any is under way). */
  encounter<T>(work: () => Promise<T>): Promise<T>;
}

export async function runOnce(
  loaded: Awaited<ReturnType<typeof loadTrees>>,
  encounter: Encounter,
  kit: Kit,
  p: number,
  side: SideBySide,
): Promise<RunFigures> {
  const clock = new SystemClock();
  const since = (t: number) => clock.now() - t;
  const trunk = Array.from({ length: LOGS }, (_, i) => ({ ...TRUNK, y: 5 + i, block: 'oak_log' }));
  const scenario = parseScenario({
    name: `night-${encounter.key}-${kit.key}-${p}`,
    timeOfDay: 18_000,
    bot: { inventory: kit.inventory },
    blocks: trunk,
    mobs: place(encounter, p),
  });
  const phases: Phases = { start: 0, join: 0, encounter: 0, teardown: 0 };
  const world = await side.setUp(async () => {
    const t = clock.now();
    const started = await startEmbeddedWorld({ clock, scenario });
    phases.start = since(t);
    return started;
  });
  // The run may wait here while another's bot joins: its world stands as started meanwhile (the time of day is fixed
  // and a hostile with no player to hunt does not move), so the bot still meets a fresh encounter.
  const username = 'worker';
  const health = watchHealth(clock, () => world.server.player(username)?.health);
  try {
    const { bot, executor, runner } = await side.setUp(async () => {
      const t = clock.now();
      const joined = await world.connectBot(username);
      const assembled = assembleLoaded({ registry: createDefaultRegistry(), world: joined, clock, loaded });
      phases.join = since(t);
      return { bot: joined, ...assembled };
    });
    const steps = [
      ...kit.wear.map((item, i) => ({ stepId: `wear-${i}`, type: 'equip', args: { item, destination: slotOf(item) } })),
      { stepId: 'fell', type: 'collect_block', args: { block: 'oak_log', count: LOGS } },
    ];
    let t = clock.now();
    const result = await side.encounter(() => {
      const run = executor.run({ planId: scenario.name, intentId: scenario.name, steps });
      if (process.env.NIGHT_VERBOSE) traceRun(run, world, bot, username, t);
      return run.result;
    });
    phases.encounter = since(t);
    t = clock.now();
    await runner.shutdown();
    health.stop();
    await world.stop();
    phases.teardown = since(t);
    const figures = { deaths: health.deaths, damage: health.damage, seconds: phases.encounter / 1000 };
    const failure = result.ok ? {} : { failure: result.code ?? 'unknown' };
    return { name: scenario.name, completed: result.ok, ...failure, ...figures, phases };
  } finally {
    health.stop();
    await world.stop();
  }
}

/** NIGHT_VERBOSE=1: each event of the run (bar progress), with the bot's health and the mobs around it, on stderr. */
function traceRun(
  run: ReturnType<ReturnType<typeof assembleLoaded>['executor']['run']>,
  world: Awaited<ReturnType<typeof startEmbeddedWorld>>,
  bot: Awaited<ReturnType<Awaited<ReturnType<typeof startEmbeddedWorld>>['connectBot']>>,
  username: string,
  started: number,
): void {
  // Runs side by side (--jobs) interleave their lines: each names its run.
  const name = world.server.scenario.name;
  let last = 20;
  const watch = setInterval(() => {
    const now = world.server.player(username)?.health ?? last;
    if (now !== last) {
      const at = bot.position();
      const mobs = bot
        .entities()
        .filter((e) => e.kind === 'hostile')
        .map((e) => `${e.name}@${Math.hypot(e.position.x - at.x, e.position.z - at.z).toFixed(1)}`);
      process.stderr.write(
        `  ${name} health ${last} -> ${now} at ${at.x.toFixed(1)},${at.z.toFixed(1)} held ${bot.heldItem()} ${mobs.join(' ')}\n`,
      );
    }
    last = now;
    if (now <= 0) clearInterval(watch);
  }, HEALTH_SAMPLE_MS);
  void run.result.finally(() => clearInterval(watch));
  void (async () => {
    for await (const event of run) {
      if (event.type === 'step.progress') continue;
      const player = world.server.player(username);
      const { type, at, ...rest } = event;
      const detail = JSON.stringify(rest).slice(0, 400);
      process.stderr.write(
        `${name} ${((at - started) / 1000).toFixed(1)}s health ${player?.health} ${type} ${detail}\n`,
      );
    }
  })();
}

function slotOf(item: string): string {
  if (item.endsWith('_helmet')) return 'head';
  if (item.endsWith('_chestplate')) return 'torso';
  return item.endsWith('_leggings') ? 'legs' : 'feet';
}
