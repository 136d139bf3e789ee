import { createRequire } from 'node:module';
import type { Bot } from 'mineflayer';
import type { Move, PartiallyComputedPath } from 'mineflayer-pathfinder';

const require = createRequire(import.meta.url);

/*
 * mineflayer-pathfinder throws a walking bot's path away (resetPath('block_updated'), a new A* search on the next tick)
 * whenever a block changes type within a block or two of any node still ahead, whatever the change does to the path.
 * In a crowd every bot's place and dig is such a change for the bots walking past it. This keeps the plugin's own rule
 * and adds one condition: the path is thrown away only if the change alters what the path needs, that is if one of
 * its moves (from the node before it) is no longer a move the bot's Movements make, at the same cost and with nothing
 * to dig or place, or its last node no longer meets the goal. The Movements are the pathfinder's own (getNeighbors):
 * a node's floor, body and head space, a step-up's head room, a jump's gap, verbtree's hazard rules are all what
 * they read. Whenever that cannot be told (a partial or failed search, a path that digs or places, a move whose start
 * is not known), the plugin's rule stands as it is.
 */

/** A search's path as the pathfinder walks it, and what its moves start from. */
interface Walked {
  /** The array the pathfinder walks: it drops each node as the bot reaches it. */
  path: Move[];
  /** Its nodes as the search gave them, the node before each one included. */
  nodes: Move[];
  /** The cell the search started from (`x,y,z`), when this result is a fresh search's and not a continued one's. */
  start: string | null;
  status: PartiallyComputedPath['status'];
  context: unknown;
}

type BlockListener = (before: unknown, after: unknown) => void;
type MoveClass = new (x: number, y: number, z: number, remainingBlocks: number, cost: number) => Move;

/**
 * Loads mineflayer-pathfinder into `bot` with the reset rule above in front of its block-change handler. A bot that has
 * the pathfinder already (a user's) keeps the plugin as it is.
 */
export function loadPathfinderResettingOnNeed(bot: Bot, plugin: (bot: Bot) => void): void {
  if (bot.pathfinder) return;
  const before = new Set(bot.listeners('blockUpdate'));
  bot.loadPlugin(plugin);
  const added = bot.listeners('blockUpdate').filter((l) => !before.has(l)) as BlockListener[];
  // The plugin registers one handler; anything else means a version this rule was not written for: leave it be.
  if (added.length !== 1) return;
  const [resetNearPath] = added as [BlockListener];
  const stillValid = pathValidity(bot);
  bot.removeListener('blockUpdate', resetNearPath);
  bot.on('blockUpdate', (before, after) => {
    if (!stillValid(before, after)) resetNearPath(before, after);
  });
}

/** Whether the path under way is known to be untouched by a block change (false: let the plugin's rule judge). */
export function pathValidity(bot: Bot): (before: unknown, after: unknown) => boolean {
  const Move = require('mineflayer-pathfinder/lib/move.js') as MoveClass;
  let walked: Walked | null = null;
  bot.on('path_update', (result) => {
    // A continued search (the same context) gives a path already trimmed to where the bot stands: its start is lost.
    const continued = walked !== null && walked.context === (result as { context?: unknown }).context;
    const context = (result as { context?: { closedDataSet?: Set<string> } }).context;
    const start = continued ? null : (context?.closedDataSet?.values().next().value ?? null);
    walked = { path: result.path, nodes: [...result.path], start, status: result.status, context };
  });
  bot.on('path_reset', () => {
    walked = null;
  });

  const cell = (hash: string, remainingBlocks: number): Move => {
    const [x, y, z] = hash.split(',').map(Number) as [number, number, number];
    return new Move(x, y, z, remainingBlocks, 0);
  };
  const movesAgain = (from: Move, to: Move): boolean =>
    bot.pathfinder.movements
      .getNeighbors(from)
      .some(
        (m) =>
          m.hash === to.hash &&
          m.cost === to.cost &&
          m.parkour === to.parkour &&
          m.toBreak.length === 0 &&
          m.toPlace.length === 0,
      );

  return (before, after) => {
    const [was, is] = [before as ChangedBlock | null, after as ChangedBlock | null];
    if (!was || !is || was.type === is.type || walked === null || walked.status !== 'success') return false;
    const { path, nodes, start } = walked;
    if (path.length === 0 || path.some((m) => m.toBreak.length > 0 || m.toPlace.length > 0)) return false;
    const first = nodes.indexOf(path[0]!);
    const fromHash = first > 0 ? nodes[first - 1]!.hash : first === 0 ? start : null;
    if (fromHash === null) return false;
    // Moves are judged from their node's cell (the path's x, y, z were moved onto the block tops it walks to).
    const cells = [cell(fromHash, path[0]!.remainingBlocks), ...path.map((m) => cell(m.hash, m.remainingBlocks))];
    // Far from every move, the plugin's own rule lets the path be: no need to judge it (and most changes a bot hears
    // in a crowd are far from its path).
    const touched = path.map((_, i) => near(was.position, cells[i]!, cells[i + 1]!));
    if (!touched.includes(true)) return false;
    // Only the moves near the change are judged again: a move's Movements read no block farther from it than `near`
    // reaches, so the others are as the search (and the judgements of every change since) found them. Judging the
    // whole path took a Movements' neighbours a move, at each change near it: in a crowd, n changes a walk.
    if (!path.every((to, i) => !touched[i] || movesAgain(cells[i]!, to))) return false;
    const goal = bot.pathfinder.goal;
    return goal !== null && goal.isEnd(cells.at(-1)!);
  };
}

interface ChangedBlock {
  type: number;
  position: { x: number; y: number; z: number };
}

/**
 * Around a move, farther than the plugin's own window (a block and a half across, two and a half up and down from a
 * node's walking point, which may sit a block under its cell): a change outside it the plugin ignores.
 */
const AROUND = { across: 2, up: 4 };

function near(at: ChangedBlock['position'], a: Move, b: Move): boolean {
  const within = (v: number, p: number, q: number, margin: number) =>
    v >= Math.min(p, q) - margin && v <= Math.max(p, q) + margin;
  return (
    within(at.x, a.x, b.x, AROUND.across) && within(at.z, a.z, b.z, AROUND.across) && within(at.y, a.y, b.y, AROUND.up)
  );
}
