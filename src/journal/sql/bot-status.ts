import type { BotReport, BotStatus } from '../rows.js';
import { run, type Param, type Tx } from './tx.js';

/**
 * What workers say of the fleet's bots: one row per bot, replaced by each report. A report carries the epoch of the
 * lease it was made under, and never replaces a report of a newer epoch; readers show a bot's row only while its
 * epoch is the bot's current lease's, so a worker that lost the bot cannot speak for it.
 */

/** Rows per statement: 11 parameters each, far below either engine's limit on parameters. */
const CHUNK = 500;
const COLUMNS = 'bot, epoch, connected, state, kind, x, y, z, health, food, reported_at';

/** Records a worker's reports, one statement per 500 bots; how many rows changed. */
export function* reportBots(reports: readonly BotReport[]): Tx<number> {
  let changed = 0;
  for (let start = 0; start < reports.length; start += CHUNK) {
    const chunk = reports.slice(start, start + CHUNK);
    const params: Param[] = chunk.flatMap((r) => [
      r.bot,
      r.epoch,
      r.connected ? 1 : 0,
      r.state,
      r.kind,
      r.position?.x ?? null,
      r.position?.y ?? null,
      r.position?.z ?? null,
      r.health,
      r.food,
    ]);
    changed += yield* run(
      `INSERT INTO bot_status (${COLUMNS}) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, verbtree_now())').join(', ')}
       ON CONFLICT (bot) DO UPDATE SET epoch = excluded.epoch, connected = excluded.connected, state = excluded.state,
         kind = excluded.kind, x = excluded.x, y = excluded.y, z = excluded.z, health = excluded.health,
         food = excluded.food, reported_at = excluded.reported_at
       WHERE bot_status.epoch <= excluded.epoch`,
      ...params,
    );
  }
  return changed;
}

/** The columns `statusOf` reads, as a query selects them from `bot_status s`. */
export const STATUS_COLUMNS =
  's.connected AS s_connected, s.state AS s_state, s.kind AS s_kind, s.x AS s_x, s.y AS s_y, s.z AS s_z, s.health AS s_health, s.food AS s_food, s.reported_at AS s_reported_at';

export interface StatusColumns {
  s_connected: number | null;
  s_state: string | null;
  s_kind: string | null;
  s_x: number | null;
  s_y: number | null;
  s_z: number | null;
  s_health: number | null;
  s_food: number | null;
  s_reported_at: number | null;
}

/** A bot's status from its joined row; null when there was no report under its current lease. */
export function statusOf(row: StatusColumns): BotStatus | null {
  if (row.s_state === null || row.s_reported_at === null) return null;
  return {
    connected: Number(row.s_connected) === 1,
    state: row.s_state,
    kind: row.s_kind ?? 'unknown',
    position: row.s_x === null || row.s_y === null || row.s_z === null ? null : { x: row.s_x, y: row.s_y, z: row.s_z },
    health: row.s_health,
    food: row.s_food,
    reportedAt: Number(row.s_reported_at),
  };
}
