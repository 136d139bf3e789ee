// A worker's path searches, counted for the fleet bench (`FLEET_PATH_TALLY=1 npm run bench -- fleet …`): loaded into
// each worker with `node --import`, it counts mineflayer-pathfinder's A* searches, the nodes they expand and the time
// they take, each path reset by its reason, and the bodies' pace: the physics ticks the bots ran (50 ms of a body's
// time each) against the wall time, all of them and those of walks. Each SIGUSR2 (the bench brackets its plan phase
// with two) prints the counts since the previous one as a stdout line, `path-tally {json}`, and starts a new window.
// Plain JavaScript: the workers run the built CLI, with no TypeScript loader.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

export const PATH_TALLY_PREFIX = 'path-tally ';

const require = createRequire(import.meta.url);
const AStar = require('mineflayer-pathfinder/lib/astar');
const pathfinderModule = require('mineflayer-pathfinder');

let window = fresh();
/** The bots held, for the window's bot-seconds. */
const bots = new Set();
function fresh() {
  return {
    searches: 0,
    computes: 0,
    nodes: 0,
    astarMs: 0,
    resets: {},
    ticks: 0,
    walkTicks: 0,
    walkMs: 0,
    openedAt: performance.now(),
  };
}

// A search is one AStar context; it may compute over several ticks (a partial result, then more).
const seen = new WeakMap();
const compute = AStar.prototype.compute;
AStar.prototype.compute = function tallied() {
  const before = seen.get(this);
  if (before === undefined) window.searches++;
  const started = performance.now();
  const result = compute.call(this);
  window.astarMs += performance.now() - started;
  window.computes++;
  window.nodes += this.closedDataSet.size - (before ?? 0);
  seen.set(this, this.closedDataSet.size);
  return result;
};

const inject = pathfinderModule.pathfinder;
pathfinderModule.pathfinder = function talliedInject(bot, options) {
  inject(bot, options);
  bot.on('path_reset', (reason) => {
    window.resets[reason] = (window.resets[reason] ?? 0) + 1;
  });
  // The body's pace: physics ticks simulated (50 ms of the body's time each) against the wall time they span, for every
  // bot and for the ticks of a walk (a goal set), whose wall time is the time between one walking tick and the next.
  let lastWalkTickAt = null;
  bot.on('physicsTick', () => {
    window.ticks++;
    if (!bot.pathfinder?.goal) {
      lastWalkTickAt = null;
      return;
    }
    const now = performance.now();
    window.walkTicks++;
    if (lastWalkTickAt !== null) window.walkMs += now - lastWalkTickAt;
    lastWalkTickAt = now;
  });
  bots.add(bot);
  bot.once('end', () => bots.delete(bot));
};

process.on('SIGUSR2', () => {
  window.wallMs = performance.now() - window.openedAt;
  window.bots = bots.size;
  process.stdout.write(`${PATH_TALLY_PREFIX}${JSON.stringify(window)}\n`);
  window = fresh();
});
