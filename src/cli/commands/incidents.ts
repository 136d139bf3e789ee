import { Command } from 'commander';
import { clearResolvedIncidents, incidentJson, listIncidents } from '../../journal/queries.js';
import type { IncidentRow } from '../../journal/rows.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';
import { formatTime, journalOption, openJournalFor, parseDuration, positiveInt } from './journal-option.js';
import { newTable } from '../table.js';

interface IncidentsOptions {
  journal: string;
  step?: string;
  plan?: string;
  unresolved?: boolean;
  clear?: boolean;
  olderThan?: string;
  limit: number;
  json?: boolean;
  resolve?: number;
  note?: string;
}

function table(rows: readonly IncidentRow[]): string {
  const t = newTable({
    head: ['#', 'failure mode', 'plan / step', 'detected', 'resolved', 'resolution'],
    style: { head: [], border: [] },
    wordWrap: true,
    colWidths: [null, null, 32, null, null, 44],
  });
  for (const row of rows) {
    t.push([
      String(row.id),
      row.failure_mode,
      row.plan_id
        ? `${row.plan_id}${row.step_id ? ` / ${row.step_id}` : ''}`
        : row.runner_id
          ? `runner ${row.runner_id.slice(0, 8)}`
          : '–',
      formatTime(row.detected_at),
      row.resolved_at === null ? 'unresolved' : formatTime(row.resolved_at),
      row.resolution ?? '–',
    ]);
  }
  return t.toString();
}

export function incidentsCommand(io: CliIO, setExit: (code: number) => void): Command {
  return new Command('incidents')
    .description(
      'The incident history: every orphaned step, hanging attempt, zombie or dead runner found, and what was done about it.',
    )
    .addOption(journalOption())
    .option('--step <id>', 'only incidents of this step (an id or its prefix)')
    .option('--plan <id>', 'only incidents of this plan')
    .option('--unresolved', 'only incidents nobody has resolved yet')
    .option('--clear', 'delete resolved incidents older than --older-than (unresolved ones are kept)')
    .option('--older-than <age>', 'with --clear: an age such as 7d, 12h or 30m (default 7d)')
    .option('--resolve <id>', 'mark an incident resolved once you have dealt with it', positiveInt('--resolve'))
    .option('--note <text>', 'with --resolve: what was done (default "resolved by an operator")')
    .option('--limit <n>', 'show at most n incidents, newest first', positiveInt('--limit'), 50)
    .option('--json', 'print { total, incidents } as JSON')
    .addHelpText(
      'after',
      `
Exit codes: 0 listed (or cleared), 2 usage error or no journal.

Examples:
  $ verbtree incidents --unresolved
  $ verbtree incidents --step walk-east --json
  $ verbtree incidents --clear --older-than 7d
  $ verbtree incidents --resolve 12 --note "restarted the server"`,
    )
    .action(async (options: IncidentsOptions) => {
      if (options.olderThan && !options.clear)
        throw new CliUsageError(
          '--older-than only applies with --clear (e.g. `verbtree incidents --clear --older-than 7d`)',
        );
      const journal = await openJournalFor(options.journal);
      try {
        if (options.resolve !== undefined) {
          const row = await journal.incident(options.resolve);
          if (!row)
            throw new CliUsageError(
              `no incident #${options.resolve}; \`verbtree incidents --unresolved\` lists the open ones`,
            );
          if (row.resolved_at !== null)
            throw new CliUsageError(`incident #${options.resolve} is already resolved: ${row.resolution ?? ''}`);
          await journal.resolveIncident(options.resolve, options.note ?? 'resolved by an operator');
          io.out(`resolved incident #${options.resolve}`);
          setExit(EXIT.ok);
          return;
        }
        if (options.clear) {
          const age = parseDuration(options.olderThan ?? '7d', '--older-than');
          const removed = await clearResolvedIncidents(journal, age);
          io.out(
            options.json
              ? JSON.stringify({ cleared: removed })
              : `cleared ${removed} resolved incident${removed === 1 ? '' : 's'} older than ${options.olderThan ?? '7d'}`,
          );
          setExit(EXIT.ok);
          return;
        }
        const { total, incidents } = await listIncidents(journal, {
          ...(options.step ? { stepId: options.step } : {}),
          ...(options.plan ? { planId: options.plan } : {}),
          unresolved: options.unresolved === true,
          limit: options.limit,
        });
        if (options.json) io.out(JSON.stringify({ total, incidents: incidents.map(incidentJson) }, null, 2));
        else if (incidents.length === 0) io.out('no incidents');
        else io.out(`${table(incidents)}\n${incidents.length} of ${total} incident${total === 1 ? '' : 's'}`);
        setExit(EXIT.ok);
      } finally {
        await journal.close();
      }
    });
}
