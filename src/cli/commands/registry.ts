import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { exportJsonSchemas } from '../../registry/json-schema.js';
import type { CapabilityRegistry } from '../../registry/registry.js';
import { type CliIO, EXIT } from '../io.js';
import { newTable } from '../table.js';

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
): Command {
  return new Command('registry')
    .description(
      'List the registered capabilities: verbs, versions, deprecations, and whether each is runnable in this build.',
    )
    .option('--json', 'print the list as JSON')
    .option('--schema', "print every capability's input as JSON Schema (for planners and LLM tool-calling)")
    .option('--check', `fail when a capability has no ${ACCEPTANCE_TEST_FILE} in capabilities/<verb>/`)
    .addHelpText(
      'after',
      `
Examples:
  $ verbtree registry
  $ verbtree registry --json
  $ verbtree registry --schema > capabilities.schema.json
  $ verbtree registry --check`,
    )
    .action((options: { json?: boolean; schema?: boolean; check?: boolean }) => {
      const reg = registry();
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
    });
}
