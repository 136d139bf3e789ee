/*
 * The tech-tree demonstration: a bot with an empty inventory on the embedded
 * server reaches a stone pickaxe (or the goal given), every effect verified on
 * the server, with live progress.
 *
 *   npm run demo:techtree -- [item] [--scenario file] [--monitor [port]] [--journal file]
 *
 * With --monitor the run is journaled (.verbtree/journal.db, or --journal) and watched in the
 * browser: the tree, the 3D world and the timeline as they move; once the goal
 * is reached (or not) the monitor stays up to replay the run, until Ctrl-C.
 */
import { createDefaultRegistry } from '../../capabilities/index.js';
import { RunMonitor } from '../../src/cli/run-monitor.js';
import { systemClock } from '../../src/clock/index.js';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { assembleExecutor, type PlanResult, type RunInput } from '../../src/index.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { DEFAULT_JOURNAL_PATH } from '../../src/journal/journal.js';
import { openJournal } from '../../src/journal/open.js';
import { loadScenario, startEmbeddedWorld, type MineflayerWorld } from '../../src/worlds.js';
import { goalPlanner } from './goal-planner.js';

const USAGE = 'usage: npm run demo:techtree -- [item] [--scenario file] [--monitor [port]] [--journal file]';
const BOT = 'techtree';

function parse(args: string[]): {
  item: string;
  scenarioFile: string;
  monitorPort: number | null;
  journalPath: string;
} {
  let scenarioFile = 'examples/scenarios/stone-age.json';
  let item = 'stone_pickaxe';
  let monitorPort: number | null = null;
  let journalPath = DEFAULT_JOURNAL_PATH;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--scenario') {
      const file = args[++i];
      if (!file) throw new Error('--scenario needs a file, e.g. --scenario examples/scenarios/stone-age.json');
      scenarioFile = file;
    } else if (arg === '--monitor') {
      const next = args[i + 1];
      monitorPort = next !== undefined && /^\d+$/.test(next) ? Number(args[++i]) : 7071;
      if (monitorPort > 65_535)
        throw new Error(`--monitor takes a port from 0 to 65535 (0 picks a free one), got ${monitorPort}`);
    } else if (arg === '--journal') {
      const file = args[++i];
      if (!file) throw new Error('--journal needs a file, e.g. --journal runs/demo.db');
      journalPath = file;
    } else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}; ${USAGE}`);
    else item = arg;
  }
  return { item, scenarioFile, monitorPort, journalPath };
}

let options: ReturnType<typeof parse>;
try {
  options = parse(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const { item, scenarioFile, monitorPort, journalPath } = options;

const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1).padStart(5);
function progress(event: ExecutorEvent): void {
  if (event.type === 'plan.accepted')
    console.log(`${seconds()} s  plan: ${event.resolved.map((s) => s.stepId).join(' → ')}`);
  if (event.type === 'step.started')
    console.log(`${seconds()} s  … ${event.stepId} (${event.verb}) ${JSON.stringify(event.args)}`);
  if (event.type === 'step.ended')
    console.log(
      `${seconds()} s  ${event.outcome.ok ? '✓' : `✗ ${event.outcome.code}: ${event.outcome.detail}`} ${event.stepId}`,
    );
  if (event.type === 'step.retry')
    console.log(`${seconds()} s  ↻ ${event.stepId} again after ${event.code}: ${event.detail}`);
  if (event.type === 'plan.escalated')
    console.log(`${seconds()} s  ⇪ re-planning after ${event.failedStepId} failed with ${event.code}`);
}

/** Resolves on Ctrl-C (or SIGTERM). */
const interrupted = () =>
  new Promise<void>((resolve) => (process.once('SIGINT', () => resolve()), process.once('SIGTERM', () => resolve())));

const intent: RunInput = {
  id: `demo-${item}-${started}`,
  source: 'user',
  goal: `have ${item}`,
  urgency: 0.5,
  safety: { allowed: true },
};
const registry = createDefaultRegistry();

/** The intent on its own executor, progress printed. */
async function runPlain(bot: MineflayerWorld): Promise<PlanResult> {
  const { executor } = await assembleExecutor({ registry, world: bot, planner: goalPlanner() });
  executor.events.on('event', progress);
  const result = await executor.run(intent).result;
  report(result);
  return result;
}

/** The intent journaled and watched: the monitor is up before the bot starts, and stays up for replay until Ctrl-C. */
async function runWatched(bot: MineflayerWorld, port: number): Promise<PlanResult> {
  const journal = await openJournal(journalPath);
  const monitor = new RunMonitor(systemClock, BOT);
  const assembly = await assembleJournaled({
    registry,
    world: bot,
    journal,
    clock: systemClock,
    kind: 'demo',
    planner: goalPlanner(),
    hooks: monitor.hooks,
  });
  try {
    const url = await monitor.start({
      journal,
      journalPath,
      registry,
      assembly,
      port,
      world: bot,
      note: (line) => console.log(line),
    });
    console.log(`monitor: ${url}   (open it to watch the tree, the 3D world and the timeline)`);
    assembly.executor.events.on('event', progress);
    const result = await (await assembly.run(intent)).result;
    report(result);
    const replay = encodeURIComponent(result.planId);
    console.log(
      `replay it: ${url}&replay=${replay}   (the monitor stays up until Ctrl-C; later: npx verbtree serve --world none --journal ${journalPath}, then /monitor/#replay=${replay})`,
    );
    await interrupted();
    return result;
  } finally {
    await monitor.close();
    await assembly.close();
    await journal.close();
  }
}

/** The outcome as the server holds it, said once the run ends (before a watched demo waits for Ctrl-C). */
function report(result: PlanResult): void {
  const held = world.server.player(BOT)?.inventory ?? {};
  console.log(
    result.ok
      ? `✓ ${item} in the inventory the server holds (${held[item] ?? 0}), in ${seconds().trim()} s`
      : `✗ ${result.code}: ${result.detail}`,
  );
}

const scenario = await loadScenario(scenarioFile).catch((error: Error) => {
  console.error(error.message);
  process.exit(2);
});
const world = await startEmbeddedWorld({ scenario });
try {
  const bot = await world.connectBot(BOT);
  const result = monitorPort === null ? await runPlain(bot) : await runWatched(bot, monitorPort);
  process.exitCode = result.ok ? 0 : 1;
} catch (error) {
  console.error(`✗ ${(error as Error).message}`);
  process.exitCode = 2;
} finally {
  await world.stop();
}
