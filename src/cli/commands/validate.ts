import { Command } from 'commander';
import type { CapabilityRegistry } from '../../registry/registry.js';
import type { ValidationIssue } from '../../validate/issue.js';
import { type ValidationReport, validatePlan } from '../../validate/validate-plan.js';
import { type CliIO, EXIT } from '../io.js';
import { planFiles } from '../plan-files.js';
import { readJsonFile } from '../read-json.js';

function describeIssue(issue: ValidationIssue): string {
  const step = issue.stepId ? ` (step "${issue.stepId}")` : '';
  return `  ${issue.where}${step}  ${issue.code}: ${issue.message}`;
}

function human(file: string, report: ValidationReport): string {
  const lines: string[] = [];
  if (report.ok)
    lines.push(
      `✓ ${file}: valid, ${report.steps.length} step${report.steps.length === 1 ? '' : 's'} (${report.steps.map((s) => `${s.spec.name}@${s.spec.version}`).join(', ')})`,
    );
  else
    lines.push(
      `✗ ${file}: ${report.issues.length} problem${report.issues.length === 1 ? '' : 's'}`,
      ...report.issues.map(describeIssue),
    );
  lines.push(...report.warnings.map((w) => `  warning: ${w.where}: ${w.message}`));
  return lines.join('\n');
}

function machine(file: string, report: ValidationReport): object {
  return report.ok
    ? {
        file,
        ok: true,
        steps: report.steps.map((s) => ({ stepId: s.step.stepId, capability: s.spec.name, version: s.spec.version })),
        warnings: report.warnings,
      }
    : { file, ok: false, issues: report.issues, warnings: report.warnings };
}

export function validateCommand(
  registry: () => CapabilityRegistry,
  io: CliIO,
  setExit: (code: number) => void,
): Command {
  return new Command('validate')
    .description(
      'Check plans against the capability registry (V1 verbs, V2 arguments, static checks) without running them.',
    )
    .argument('<paths...>', 'plan files, or folders whose *.plan.json files are checked')
    .option('--json', 'print one JSON report per plan')
    .addHelpText(
      'after',
      `
Exit codes: 0 every plan is valid, 1 a plan is invalid, 2 usage error or unreadable file.

Examples:
  $ verbtree validate examples/acquire-wood.plan.json
  $ verbtree validate examples --json`,
    )
    .action(async (paths: string[], options: { json?: boolean }) => {
      const reports: object[] = [];
      let allValid = true;
      for (const file of await planFiles(paths)) {
        const report = validatePlan(await readJsonFile(file), registry());
        allValid &&= report.ok;
        if (options.json) reports.push(machine(file, report));
        else io.out(human(file, report));
      }
      if (options.json) io.out(JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2));
      setExit(allValid ? EXIT.ok : EXIT.failed);
    });
}
