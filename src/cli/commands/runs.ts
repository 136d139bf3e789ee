import { Command } from 'commander';
import { hostname } from 'node:os';
import { processAlive } from '../../journal/process-alive.js';
import { listRuns, type RunSummary } from '../../journal/queries.js';
import { type CliIO, EXIT } from '../io.js';
import { formatTime, journalOption, openJournalFor, positiveInt } from './journal-option.js';
import { newTable } from '../table.js';

function runStatus(run: RunSummary): string {
  if (run.ended_at === null) {
    // Until a health check records it, a crashed run still looks like it is running: say so when its process is gone.
    const gone =
      run.runner_status === 'dead' ||
      (run.runner_pid !== null && run.runner_host === hostname() && !processAlive(run.runner_pid));
    return gone ? 'running? its process is gone (verbtree health check)' : 'running';
  }
  if (run.ok === 1) return 'succeeded';
  if (run.cancelled_at !== null) return 'cancelled';
  return run.code === 'interrupted' ? 'interrupted' : `failed: ${run.code ?? '?'}`;
}

export function runsCommand(io: CliIO, setExit: (code: number) => void): Command {
  return new Command('runs')
    .description('The journaled runs, newest first: which plan, how it ended, how many of its steps succeeded.')
    .addOption(journalOption())
    .option('--limit <n>', 'show at most n runs', positiveInt('--limit'), 20)
    .option('--json', 'print the runs as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ verbtree runs
  $ verbtree runs --journal runs/bot1.db --limit 5 --json`,
    )
    .action(async (options: { journal: string; limit: number; json?: boolean }) => {
      const journal = await openJournalFor(options.journal);
      try {
        const runs = await listRuns(journal, options.limit);
        if (options.json) io.out(JSON.stringify(runs, null, 2));
        else if (runs.length === 0) io.out('no runs journaled yet');
        else {
          const table = newTable({
            head: ['run', 'plan', 'status', 'steps done here', 'started', 'took', 'pid', 'resumed'],
            style: { head: [], border: [] },
          });
          for (const run of runs) {
            table.push([
              String(run.id),
              run.plan_id,
              runStatus(run) + (Number(run.steps_retracted) > 0 ? `; ${run.steps_retracted} retracted` : ''),
              `${run.steps_succeeded}/${run.steps_total}`,
              formatTime(run.started_at),
              run.ended_at === null ? '–' : `${((run.ended_at - run.started_at) / 1000).toFixed(1)}s`,
              run.runner_pid === null ? '–' : String(run.runner_pid),
              run.resumed ? 'yes' : '',
            ]);
          }
          io.out(table.toString());
        }
        setExit(EXIT.ok);
      } finally {
        await journal.close();
      }
    });
}
