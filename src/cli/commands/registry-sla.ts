import { Command } from 'commander';
import type { Journal } from '../../journal/journal.js';
import {
  applyPromotions,
  canaryStatuses,
  PromotionRule,
  promoteCanary,
  type CanaryConfig,
  type CanaryStatus,
  type VersionSla,
} from '../../registry/canary-sla.js';
import { RegistrationError, type CapabilityRegistry } from '../../registry/registry.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';
import { newTable } from '../table.js';
import { journalOption, openJournalFor } from './journal-option.js';

/** The canaries' standing as the journal has them: its promotions applied, its runs judged by the rule. */
export async function canaryReport(
  registry: CapabilityRegistry,
  journal: Journal,
  rule: PromotionRule,
): Promise<CanaryStatus[]> {
  applyPromotions(registry, await journal.promotions());
  return canaryStatuses(registry, await journal.versionRuns(), rule);
}

const NO_CANARY =
  "no canaries registered: a capability with canary: true beside its verb's stable version runs in shadow (docs/foresight.md)";

/** The stable version and the canary side by side, a row each per world kind, with the canary's standing. */
export function slaTable(statuses: readonly CanaryStatus[]): string {
  if (statuses.length === 0) return NO_CANARY;
  const table = newTable({
    head: ['verb', 'version', 'role', 'world', 'runs', 'success', 'p95 time', 'p95 TTFA', 'damage', 'status'],
    colWidths: [null, null, null, null, null, null, null, null, null, 48],
    wordWrap: true,
  });
  for (const status of statuses) {
    const standing = `${status.state}: ${status.reason}`;
    if (status.sla.length === 0)
      table.push([status.verb, status.version, 'canary', '–', '0', '', '', '', '', standing]);
    for (const { worldKind, stable, canary } of status.sla) {
      table.push([status.verb, status.stable, 'stable', worldKind, ...cells(stable), '']);
      table.push([status.verb, status.version, 'canary (shadow runs)', worldKind, ...cells(canary), standing]);
    }
  }
  return table.toString();
}

function cells(sla: VersionSla | null): string[] {
  if (!sla) return ['0', '–', '–', '–', '–'];
  const ms = (value: number | null) => (value === null ? '–' : `${Math.round(value)} ms`);
  return [
    String(sla.runs),
    `${Math.round(sla.successRate * 100)}%`,
    ms(sla.p95DurationMs),
    ms(sla.p95TtfaMs),
    sla.meanDamage.toFixed(1),
  ];
}

/** `verbtree registry promote <verb>@<version>`: the rule must mark it ready; the journal keeps the promotion. */
export function promoteCommand(
  registry: () => CapabilityRegistry,
  canaries: () => CanaryConfig | undefined,
  io: CliIO,
  setExit: (code: number) => void,
): Command {
  return new Command('promote')
    .description(
      "Make a canary the version that acts, once the promotion rule marks it ready (enough shadow runs, success at least the stable version's, p95 time within the margin); the journal keeps the promotion.",
    )
    .argument('<verb@version>', 'the canary, e.g. collect_block@2.0.0')
    .addOption(journalOption())
    .addHelpText(
      'after',
      `
Examples:
  $ verbtree registry promote collect_block@2.0.0
  $ verbtree registry promote collect_block@2.0.0 --journal postgres://verbtree@db/verbtree`,
    )
    .action(async (ref: string, options: { journal: string }) => {
      const reg = registry();
      const rule = PromotionRule.parse(canaries()?.rule ?? {});
      const journal = await openJournalFor(options.journal);
      try {
        applyPromotions(reg, await journal.promotions());
        const status = promoteCanary(reg, ref, await journal.versionRuns(), rule);
        await journal.recordPromotion(status.verb, status.version);
        io.out(`✓ ${status.verb}@${status.version} acts from now on in place of ${status.stable} (${status.reason})`);
        setExit(EXIT.ok);
      } catch (error) {
        if (error instanceof RegistrationError) throw new CliUsageError(error.message);
        throw error;
      } finally {
        await journal.close();
      }
    });
}
