import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { PromotionRule, type CanaryConfig } from '../../registry/canary-sla.js';
import { exportJsonSchemas } from '../../registry/json-schema.js';
import type { CapabilityRegistry } from '../../registry/registry.js';
import { type CliIO, EXIT } from '../io.js';
import { newTable } from '../table.js';
import { journalOption, openJournalFor } from './journal-option.js';
import { canaryReport, promoteCommand, slaTable } from './registry-sla.js';

/** The file whose presence `registry --check` demands in each capability's folder. */
export const ACCEPTANCE_TEST_FILE = 'acceptance.test.ts';

function missingAcceptanceTests(registry: CapabilityRegistry, capabilitiesDir: string): string[] {
  return registry.verbs().filter((verb) => !existsSync(join(capabilitiesDir, verb, ACCEPTANCE_TEST_FILE)));
}

export function registryCommand(
  registry: () => CapabilityRegistry,
  capabilitiesDir: string,
  io: CliIO,
  setExit: (code: number) => void,
  canaries: () => CanaryConfig | undefined = () => undefined,
): Command {
  return (
    new Command('registry')
      .description(
        'List the registered capabilities: verbs, versions, deprecations, and whether each is runnable in this build.',
      )
      .option('--json', 'print the list as JSON')
      .option('--schema', "print every capability's input as JSON Schema (for planners and LLM tool-calling)")
      .option('--check', `fail when a capability has no ${ACCEPTANCE_TEST_FILE} in capabilities/<verb>/`)
      .option('--sla', "show each canary's shadow-run SLA beside its stable version's, by world kind, and its standing")
      .addOption(journalOption())
      .addHelpText(
        'after',
        `
Examples:
  $ verbtree registry
  $ verbtree registry --json
  $ verbtree registry --schema > capabilities.schema.json
  $ verbtree registry --check
  $ verbtree registry --sla --journal runs/bot1.db
  $ verbtree registry promote collect_block@2.0.0`,
      )
      // `registry promote x --journal j`: the option after the subcommand is the subcommand's.
      .enablePositionalOptions()
      .addCommand(promoteCommand(registry, canaries, io, setExit))
      .action(
        async (options: { json?: boolean; schema?: boolean; check?: boolean; sla?: boolean; journal: string }) => {
          const reg = registry();
          if (options.sla) {
            const journal = await openJournalFor(options.journal);
            try {
              const statuses = await canaryReport(reg, journal, PromotionRule.parse(canaries()?.rule ?? {}));
              io.out(options.json ? JSON.stringify(statuses, null, 2) : slaTable(statuses));
            } finally {
              await journal.close();
            }
            return;
          }
          if (options.check) {
            const missing = missingAcceptanceTests(reg, capabilitiesDir);
            if (missing.length === 0) io.out(`✓ every capability (${reg.verbs().length}) has ${ACCEPTANCE_TEST_FILE}`);
            else
              io.err(
                missing
                  .map(
                    (verb) =>
                      `✗ ${verb}: no capabilities/${verb}/${ACCEPTANCE_TEST_FILE}; add a test of its acceptance check`,
                  )
                  .join('\n'),
              );
            setExit(missing.length === 0 ? EXIT.ok : EXIT.failed);
            return;
          }
          if (options.schema) {
            io.out(JSON.stringify(exportJsonSchemas(reg), null, 2));
            return;
          }
          const summaries = reg.summaries();
          if (options.json) {
            io.out(JSON.stringify(summaries, null, 2));
            return;
          }
          const table = newTable({
            head: ['verb', 'version', 'runnable', 'notes'],
            colWidths: [null, null, null, 64],
            wordWrap: true,
          });
          for (const s of summaries) {
            table.push([
              s.name,
              s.version,
              s.runnable ? 'yes' : 'not runnable in this build',
              s.deprecated ? `deprecated: ${s.deprecated}` : s.description,
            ]);
          }
          io.out(table.toString());
        },
      )
  );
}
