import type { Bot } from 'mineflayer';
import type { Movements } from 'mineflayer-pathfinder';
import { guardAgainstHazards } from './hazard-movements.js';
import { loadMineflayer } from './load-mineflayer.js';
import { loadPathfinderResettingOnNeed } from './path-resets.js';
import { climbOutOfWater } from './water-movements.js';

const THINK_TIMEOUT_MS = 3000;

interface PathfinderSettings {
  movements: Movements;
  thinkTimeout: number;
  searchRadius: number;
}

/**
 * verbtree's pathfinder rules, in force only while one of verbtree's own walks
 * runs. A MineflayerWorld may wrap a user's bot: the user's Movements, think
 * timeout and search radius stay theirs, and are put back when each walk ends.
 * Loading the pathfinder plugin into a bot that lacks it is the one lasting change
 * (with its path resets on block changes limited to those that touch the path:
 * path-resets.ts); a bot that has it keeps the plugin as it is.
 */
export class ScopedPathfinder {
  private readonly movements: Movements;

  constructor(
    private readonly bot: Bot,
    private readonly searchRadius: number,
  ) {
    const { pathfinder } = loadMineflayer();
    loadPathfinderResettingOnNeed(bot, pathfinder.pathfinder);
    this.movements = guardAgainstHazards(bot, climbOutOfWater(bot, walkingMovements(bot)));
  }

  /**
   * Puts verbtree's rules in place for one walk and returns what puts the owner's back (safe to call more than once).
   */
  apply(): () => void {
    const pf = this.bot.pathfinder as Bot['pathfinder'] & { searchRadius: number };
    const saved: PathfinderSettings = {
      movements: pf.movements,
      thinkTimeout: pf.thinkTimeout,
      searchRadius: pf.searchRadius,
    };
    const mine = this.movements;
    pf.setMovements(mine);
    pf.thinkTimeout = THINK_TIMEOUT_MS;
    pf.searchRadius = this.searchRadius;
    let restored = false;
    return () => {
      if (restored) return;
      restored = true;
      // Someone else (the owner) set their own since: theirs stays.
      if (pf.movements === mine) pf.setMovements(saved.movements);
      pf.thinkTimeout = saved.thinkTimeout;
      pf.searchRadius = saved.searchRadius;
    };
  }
}

function walkingMovements(bot: Bot): Movements {
  const movements = new (loadMineflayer().pathfinder.Movements)(bot);
  // Navigation walks; digging and building are separate, verified steps, and
  // scaffolding would spend blocks the plan needs (cobblestone for a stone axe).
  movements.canDig = false;
  movements.allow1by1towers = false;
  movements.scafoldingBlocks = [];
  // Players pass through each other; pathfinder's entity weighting instead
  // found no path at all for bots crowded at a shared spawn (50 bots).
  movements.allowEntityDetection = false;
  return movements;
}
