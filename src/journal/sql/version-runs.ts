import type { VersionRun } from '../../registry/canary-sla.js';
import { all, exec, type Tx } from './tx.js';

/** A canary made to act, as the journal keeps it. */
export interface PromotionRow {
  verb: string;
  version: string;
  promotedAt: number;
}

interface VersionRunRow {
  verb: string;
  version: string;
  world_kind: string;
  shadow: number;
  ok: number;
  code: string | null;
  ttfa_ms: number | null;
  duration_ms: number;
  damage: number;
  at: number;
}

export function* recordVersionRun(run: VersionRun): Tx<void> {
  yield* exec(
    `INSERT INTO version_runs (verb, version, world_kind, shadow, ok, code, ttfa_ms, duration_ms, damage, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    run.verb,
    run.version,
    run.worldKind,
    run.shadow ? 1 : 0,
    run.ok ? 1 : 0,
    run.code,
    run.ttfaMs,
    run.durationMs,
    run.damage,
    run.at,
  );
}

/** Every run of `verb`'s versions (of every verb without one), in the order they were kept. */
export function* versionRuns(verb?: string): Tx<VersionRun[]> {
  const rows =
    verb === undefined
      ? yield* all<VersionRunRow>('SELECT * FROM version_runs ORDER BY id')
      : yield* all<VersionRunRow>('SELECT * FROM version_runs WHERE verb = ? ORDER BY id', verb);
  return rows.map((row) => ({
    verb: row.verb,
    version: row.version,
    worldKind: row.world_kind,
    shadow: row.shadow === 1,
    ok: row.ok === 1,
    code: row.code,
    ttfaMs: row.ttfa_ms,
    durationMs: row.duration_ms,
    damage: row.damage,
    at: row.at,
  }));
}

/** Keeps a promotion (again: nothing changes). */
export function* recordPromotion(verb: string, version: string): Tx<void> {
  yield* exec(
    'INSERT INTO capability_promotions (verb, version, promoted_at) VALUES (?, ?, verbtree_now()) ON CONFLICT (verb, version) DO NOTHING',
    verb,
    version,
  );
}

export function* promotions(): Tx<PromotionRow[]> {
  const rows = yield* all<{ verb: string; version: string; promoted_at: number }>(
    'SELECT * FROM capability_promotions ORDER BY verb, version',
  );
  return rows.map((row) => ({ verb: row.verb, version: row.version, promotedAt: row.promoted_at }));
}
