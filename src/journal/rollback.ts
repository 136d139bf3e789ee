import { Expectations } from '../contracts/expectation.js';
import type { WorldPort } from '../contracts/world.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import type { Journal } from './journal.js';
import { goneNow } from './recheck-effects.js';
import type { Fence } from './rows.js';
import type { RecordedSuccess, Retraction } from './sql/retract.js';

/** What a rejoin learnt of a server that restarted, and whose successes to check again. */
export interface RecheckScope {
  bot: string;
  /** What showed the restart (another server process, the world's age going back). */
  restart: string;
  /**
   * Up to when the world that came back was saved, when the server says (the embedded world does): every success
   * after it may be gone, and each is checked.
   */
  savedUpTo: number | null;
  /**
   * Otherwise, the successes after this (by default when the bot last connected) and those of its plans under way,
   * checked newest first.
   */
  windowStart: number;
  fence?: Fence;
  /** The runner of `serve` or `mcp` that drives the bot: its plans are journaled without a bot, and found by it. */
  runnerId?: string;
  /**
   * The capabilities the bot runs: a success of a version registered here is judged by that capability's own
   * acceptance again (recheck-effects.ts); one of a version not registered, by its journaled expectations alone.
   */
  registry?: CapabilityRegistry;
}

export interface RecheckVerdicts {
  /** Successes found gone from the live world: journaled `retracted`, their idempotency keys released. */
  retracted: Retraction[];
  /** Successes that hold, or that a later one that holds vouches for (a rollback loses the time after a save). */
  held: { planId: string; stepId: string }[];
}

/**
 * After a server restart, the bot's successes that may not have been saved are checked again against the live world
 * by their capability's own acceptance (what confirmed them when they ended), or by their journaled expectations where
 * that capability is not registered. A success whose effect is gone, or that journaled nothing to check it by, is
 * `retracted` with its evidence (`Journal.retractSteps`): `ok` was said of
 * a world that no longer holds it.
 *
 * With the save's time known, every success after it is checked on its own: all of them came after the save, so none
 * of them is in the saved world unless it holds now. Without it, the window's successes are checked newest first and
 * the first that holds a lasting fact of the world (`LASTING`) ends the check: a rollback loses the time after some
 * save, so the world that holds a success holds the time before it too, and an older success's effect that a later
 * step changed since (planks sticks were made of) is no loss.
 */
export async function recheckAfterRestart(
  journal: Journal,
  world: WorldPort,
  scope: RecheckScope,
): Promise<RecheckVerdicts> {
  const saved = scope.savedUpTo !== null;
  const candidates = await journal.successesSince(
    scope.bot,
    scope.savedUpTo ?? scope.windowStart,
    !saved,
    scope.runnerId,
  );
  const verdicts: RecheckVerdicts = { retracted: [], held: [] };
  const newestFirst = [...candidates].reverse();
  for (const [index, success] of newestFirst.entries()) {
    const gone = await goneNow(world, success, scope.registry);
    if (gone !== null) {
      verdicts.retracted.push({ planId: success.planId, stepId: success.stepId, evidence: evidenceOf(scope, gone) });
      continue;
    }
    const vouches = !saved && changedTheWorld(success);
    const held = vouches ? newestFirst.slice(index) : [success];
    verdicts.held.push(...held.map(({ planId, stepId }) => ({ planId, stepId })));
    if (vouches) break;
  }
  verdicts.retracted.reverse();
  if (verdicts.retracted.length > 0) await journal.retractSteps(verdicts.retracted, scope.restart, scope.fence);
  return verdicts;
}

/**
 * Kinds of expectation that are a lasting fact of the world (what the pack, a block or a chest holds), which only a
 * save keeps. Where the bot stands, what it holds in hand, the time or the mobs around tell nothing of when the world
 * was saved: a bot that respawns where a later walk took it holds such a success by chance.
 */
const LASTING = new Set(['inventory', 'inventory_total', 'block', 'block_state', 'container']);

function changedTheWorld(success: RecordedSuccess): boolean {
  const parsed = Expectations.safeParse(JSON.parse(success.expectations ?? '[]'));
  return parsed.success && parsed.data.some((e) => LASTING.has(e.kind));
}

function evidenceOf(scope: RecheckScope, gone: string): string {
  const when =
    scope.savedUpTo === null
      ? ''
      : `; it succeeded after the world was last saved (${new Date(scope.savedUpTo).toISOString()})`;
  return `the server restarted (${scope.restart})${when}; ${gone}`;
}
