import { z } from 'zod';
import { type CanaryEntry, type CapabilityRegistry, RegistrationError } from './registry.js';

/** One run of one version of a verb: a real step, or a canary's shadow run on a fork (which never acted). */
export interface VersionRun {
  verb: string;
  version: string;
  /** The kind of the world the step ran in (a shadow run: the world its fork was taken from). */
  worldKind: string;
  shadow: boolean;
  ok: boolean;
  /** The failure code (a fork cut off: `sim_budget`, `wall_budget`, `crashed`); null when ok. */
  code: string | null;
  ttfaMs: number | null;
  durationMs: number;
  /** Health lost while it ran. */
  damage: number;
  at: number;
}

/** A version's SLA on one kind of world, real or shadow. */
export interface VersionSla {
  verb: string;
  version: string;
  worldKind: string;
  shadow: boolean;
  runs: number;
  successes: number;
  successRate: number;
  p95DurationMs: number;
  /** Null when no run made an actuator command. */
  p95TtfaMs: number | null;
  meanDamage: number;
}

/** When a canary is ready to act: enough shadow runs, as successful as the stable version, and not much slower. */
export const PromotionRule = z.strictObject({
  minRuns: z
    .int({ error: 'minRuns must be a whole number of shadow runs, e.g. 20' })
    .min(1, { error: 'minRuns must be at least 1 shadow run' })
    .default(20),
  p95MarginPct: z
    .number({ error: 'p95MarginPct must be a percentage, e.g. 20 (the canary p95 may be 20% above the stable one)' })
    .min(0, { error: 'p95MarginPct must be 0 or more (0: no slower than the stable version)' })
    .max(1000, { error: 'p95MarginPct must be at most 1000' })
    .default(20),
});
export type PromotionRule = z.infer<typeof PromotionRule>;

/** A project config's `canaries`: the promotion rule, and the canaries the project makes act whatever the rule says. */
export const CanaryConfig = z.strictObject({
  rule: PromotionRule.optional(),
  promote: z
    .array(z.string().regex(/^[^@\s]+@[^@\s]+$/, { error: 'must be <verb>@<version>, e.g. collect_block@2.0.0' }))
    .optional(),
});
export type CanaryConfig = z.infer<typeof CanaryConfig>;

/** Nearest-rank percentile of `values` (not empty). */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The SLA of each version, world kind and kind of run (real or shadow) among `runs`. */
export function slaOf(runs: readonly VersionRun[]): VersionSla[] {
  const groups = new Map<string, VersionRun[]>();
  for (const run of runs) {
    const key = JSON.stringify([run.verb, run.version, run.worldKind, run.shadow]);
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  return [...groups.values()].map((group) => {
    const { verb, version, worldKind, shadow } = group[0]!;
    const successes = group.filter((run) => run.ok).length;
    const ttfas = group.flatMap((run) => (run.ttfaMs === null ? [] : [run.ttfaMs]));
    return {
      verb,
      version,
      worldKind,
      shadow,
      runs: group.length,
      successes,
      successRate: successes / group.length,
      p95DurationMs: percentile(
        group.map((run) => run.durationMs),
        95,
      ),
      p95TtfaMs: ttfas.length ? percentile(ttfas, 95) : null,
      meanDamage: group.reduce((sum, run) => sum + run.damage, 0) / group.length,
    };
  });
}

/** A canary's standing: in shadow, ready to be promoted (by the rule), or promoted; with why, per world kind. */
export interface CanaryStatus extends CanaryEntry {
  state: 'shadow' | 'ready' | 'promoted';
  reason: string;
  /** The stable version's real SLA and the canary's shadow SLA, on each world kind the canary ran in shadow on. */
  sla: { worldKind: string; stable: VersionSla | null; canary: VersionSla }[];
}

/**
 * Judges a canary by the rule on each world kind it ran in shadow on, against the stable version's real runs there:
 * ready when at least one kind holds `minRuns` shadow runs and every such kind passes (success rate at least the
 * stable's, p95 duration within `p95MarginPct` of the stable's). Kinds with fewer runs wait.
 */
export function canaryStatus(entry: CanaryEntry, runs: readonly VersionRun[], rule: PromotionRule): CanaryStatus {
  const sla = slaOf(runs.filter((run) => run.verb === entry.verb));
  const pairs = sla
    .filter((s) => s.shadow && s.version === entry.version)
    .map((canary) => ({
      worldKind: canary.worldKind,
      canary,
      stable: sla.find((s) => !s.shadow && s.version === entry.stable && s.worldKind === canary.worldKind) ?? null,
    }));
  if (entry.promoted) return { ...entry, state: 'promoted', reason: 'it acts', sla: pairs };
  const judged = pairs.filter((pair) => pair.canary.runs >= rule.minRuns);
  const faults = judged.flatMap((pair) => faultOf(pair, rule, entry));
  const most = Math.max(0, ...pairs.map((pair) => pair.canary.runs));
  const reason =
    faults.length > 0
      ? faults.join('; ')
      : judged.length === 0
        ? `${most} of ${rule.minRuns} shadow runs so far`
        : `${judged.map((p) => `${p.canary.runs} shadow runs on ${p.worldKind}`).join(', ')} meet the rule`;
  return { ...entry, state: faults.length === 0 && judged.length > 0 ? 'ready' : 'shadow', reason, sla: pairs };
}

function faultOf(
  { worldKind, canary, stable }: CanaryStatus['sla'][number],
  rule: PromotionRule,
  entry: CanaryEntry,
): string[] {
  if (!stable) return [`on ${worldKind}: the stable ${entry.verb}@${entry.stable} has no real runs to compare with`];
  const faults: string[] = [];
  if (canary.successRate < stable.successRate)
    faults.push(
      `on ${worldKind}: success ${percent(canary.successRate)} is below the stable's ${percent(stable.successRate)}`,
    );
  const limit = stable.p95DurationMs * (1 + rule.p95MarginPct / 100);
  if (canary.p95DurationMs > limit)
    faults.push(
      `on ${worldKind}: p95 duration ${Math.round(canary.p95DurationMs)} ms is above the stable's ${Math.round(stable.p95DurationMs)} ms + ${rule.p95MarginPct}%`,
    );
  return faults;
}

const percent = (rate: number) => `${Math.round(rate * 100)}%`;

/** Reads `<verb>@<version>`, e.g. `collect_block@2.0.0`; refuses anything else naming the form. */
export function parseVersionRef(ref: string): { verb: string; version: string } {
  const match = /^([^@\s]+)@([^@\s]+)$/.exec(ref);
  if (!match) throw new RegistrationError(`"${ref}" is not <verb>@<version>; write e.g. collect_block@2.0.0`);
  return { verb: match[1]!, version: match[2]! };
}

/**
 * Promotes the canary `ref` (`<verb>@<version>`) when the rule marks it ready on `runs`; refuses, saying why, a
 * canary that is not ready, and (as `registry.promote` does) whatever is no canary of the registry.
 */
export function promoteCanary(
  registry: CapabilityRegistry,
  ref: string,
  runs: readonly VersionRun[],
  rule: PromotionRule,
): CanaryStatus {
  const { verb, version } = parseVersionRef(ref);
  const entry = registry.canaries().find((canary) => canary.verb === verb && canary.version === version);
  // No such canary: the registry's own refusal names what the verb has.
  if (!entry) registry.promote(verb, version);
  const status = canaryStatus(entry!, runs, rule);
  if (status.state === 'promoted') throw new RegistrationError(`promote ${ref}: it is promoted already: it acts`);
  if (status.state !== 'ready')
    throw new RegistrationError(
      `promote ${ref}: not ready by the promotion rule (${status.reason}); let it run in shadow longer, or list it in the project config's canaries.promote`,
    );
  registry.promote(verb, version);
  return { ...status, state: 'promoted', promoted: true, reason: status.reason };
}

/**
 * Makes act the canaries a journal says were promoted (by `verbtree registry promote`), where the registry still
 * holds them; a promotion of a canary the registry no longer has is left alone.
 */
export function applyPromotions(
  registry: CapabilityRegistry,
  promotions: readonly { verb: string; version: string }[],
): void {
  for (const { verb, version } of promotions)
    if (registry.canaryOf(verb)?.version === version) registry.promote(verb, version);
}

/** Every canary's standing by the rule over `runs`. */
export function canaryStatuses(
  registry: CapabilityRegistry,
  runs: readonly VersionRun[],
  rule: PromotionRule,
): CanaryStatus[] {
  return registry.canaries().map((entry) => canaryStatus(entry, runs, rule));
}
