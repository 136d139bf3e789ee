/*
 * The tech-tree demonstration: a bot with an empty inventory on the embedded
 * server reaches a stone pickaxe (or the goal given), every effect verified on
 * the server, with live progress.
 *
 *   npm run demo:techtree -- [item] [--scenario file]
 */
import { createDefaultRegistry } from '../../capabilities/index.js';
import { assembleExecutor } from '../../src/index.js';
import { loadScenario, startEmbeddedWorld } from '../../src/worlds.js';
import { goalPlanner } from './goal-planner.js';

const args = process.argv.slice(2);
const at = args.indexOf('--scenario');
const scenarioFile = at >= 0 ? args[at + 1] : 'examples/scenarios/stone-age.json';
const item = args.find((arg, i) => !arg.startsWith('--') && i !== at + 1) ?? 'stone_pickaxe';
if (!scenarioFile) {
  console.error('--scenario needs a file, e.g. --scenario examples/scenarios/stone-age.json');
  process.exit(2);
}

const world = await startEmbeddedWorld({ scenario: await loadScenario(scenarioFile) });
try {
  const bot = await world.connectBot('techtree');
  const { executor } = await assembleExecutor({ registry: createDefaultRegistry(), world: bot, planner: goalPlanner() });
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1).padStart(5);
  executor.events.on('event', (event) => {
    if (event.type === 'plan.accepted') console.log(`${seconds()} s  plan: ${event.resolved.map((s) => s.stepId).join(' → ')}`);
    if (event.type === 'step.started') console.log(`${seconds()} s  … ${event.stepId} (${event.verb}) ${JSON.stringify(event.args)}`);
    if (event.type === 'step.ended') console.log(`${seconds()} s  ${event.outcome.ok ? '✓' : `✗ ${event.outcome.code}: ${event.outcome.detail}`} ${event.stepId}`);
    if (event.type === 'plan.escalated') console.log(`${seconds()} s  ⇪ re-planning after ${event.failedStepId} failed with ${event.code}`);
  });
  const result = await executor.run({ id: `demo-${item}`, source: 'user', goal: `have ${item}`, urgency: 0.5, safety: { allowed: true } }).result;
  const held = world.server.player('techtree')?.inventory ?? {};
  console.log(result.ok ? `✓ ${item} in the inventory the server holds (${held[item] ?? 0}), in ${seconds().trim()} s` : `✗ ${result.code}: ${result.detail}`);
  process.exitCode = result.ok ? 0 : 1;
} finally {
  await world.stop();
}
