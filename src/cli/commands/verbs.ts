import { Command } from 'commander';
import { z } from 'zod';
import type { CapabilityRegistry } from '../../registry/registry.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';
import { readJsonFile } from '../read-json.js';

const PlannerVerbs = z.union([
  z.array(z.string()),
  z.strictObject({ verbs: z.array(z.string()) }).transform((v) => v.verbs),
]);

export interface VerbDivergence {
  unknownToRegistry: string[];
  unusedByPlanner: string[];
}

export function compareVerbs(plannerVerbs: readonly string[], registry: CapabilityRegistry): VerbDivergence {
  const planner = new Set(plannerVerbs);
  return {
    unknownToRegistry: [...planner].filter((verb) => !registry.has(verb)).sort(),
    unusedByPlanner: registry.verbs().filter((verb) => !planner.has(verb)),
  };
}

export function verbsCommand(registry: () => CapabilityRegistry, io: CliIO, setExit: (code: number) => void): Command {
  return new Command('verbs')
    .description(
      'The CI gate between a planner and this registry: fails when their verb sets diverge, listing both directions.',
    )
    .requiredOption('--check <planner-verbs.json>', 'a JSON array of the verbs the planner emits, or {"verbs": [...]}')
    .option('--json', 'print the divergence as JSON')
    .addHelpText(
      'after',
      `
Exit codes: 0 same verb sets, 1 they diverge, 2 usage error or unreadable file.

Example:
  $ verbtree verbs --check examples/planner-verbs.json`,
    )
    .action(async (options: { check: string; json?: boolean }) => {
      const parsed = PlannerVerbs.safeParse(await readJsonFile(options.check));
      if (!parsed.success) {
        throw new CliUsageError(`${options.check} must hold a JSON array of verb names, or {"verbs": [...]}`);
      }
      const divergence = compareVerbs(parsed.data, registry());
      const same = divergence.unknownToRegistry.length === 0 && divergence.unusedByPlanner.length === 0;
      if (options.json) io.out(JSON.stringify({ ok: same, ...divergence }, null, 2));
      else if (same) io.out(`✓ the planner and the registry agree on ${parsed.data.length} verbs`);
      else {
        if (divergence.unknownToRegistry.length)
          io.out(
            `✗ the planner emits verbs the registry lacks (steps would fail with unknown_verb): ${divergence.unknownToRegistry.join(', ')}`,
          );
        if (divergence.unusedByPlanner.length)
          io.out(`✗ the registry offers verbs the planner never emits: ${divergence.unusedByPlanner.join(', ')}`);
      }
      setExit(same ? EXIT.ok : EXIT.failed);
    });
}
