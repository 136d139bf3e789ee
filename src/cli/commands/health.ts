import { Command } from 'commander';
import { runHealthCheck, type FailureMode, type HealthReport } from '../../journal/health-check.js';
import type { HealthConfigInput } from '../../journal/health-config.js';
import { type CliIO, EXIT } from '../io.js';
import { formatTime, journalOption, openJournalFor, positiveInt } from './journal-option.js';

const LABELS: Record<FailureMode, string> = {
  orphaned_step: 'Orphaned Steps:',
  hanging_attempt: 'Hanging Attempts:',
  zombie_runner: 'Zombie Runners:',
  dead_runner: 'Dead Runners:',
  expired_lease: 'Expired Leases:',
  dead_worker: 'Dead Workers:',
};

/** Lines in a box sized to the longest, like the task-runner report operators already know. */
export function box(title: string, lines: readonly string[]): string {
  const width = Math.max(title.length, ...lines.map((l) => [...l].length)) + 2;
  const row = (text: string) => `│ ${text}${' '.repeat(width - 1 - [...text].length)}│`;
  return [
    `┌${'─'.repeat(width)}┐`,
    row(title),
    `├${'─'.repeat(width)}┤`,
    ...lines.map(row),
    `└${'─'.repeat(width)}┘`,
  ].join('\n');
}

export function healthReportText(report: HealthReport, journalPath: string): string {
  const lines = [`Timestamp: ${formatTime(report.at)}`, `Journal:   ${journalPath}`, `Status:    ${report.status}`, ''];
  if (report.skipped) lines.push(`Skipped:   ${report.skipped}`, '');
  for (const check of report.checks)
    lines.push(`${LABELS[check.type].padEnd(20)}${String(check.found).padStart(3)} ${check.healthy ? '✓' : '✗'}`);
  lines.push('', `Incidents Found: ${report.findings.length}`);
  for (const finding of report.findings) lines.push(`  - ${finding.mode} #${finding.incidentId}: ${finding.summary}`);
  const acted = report.findings.filter((f) => !f.action.startsWith('none') && f.action !== 'left in progress');
  lines.push('', `Actions Taken: ${acted.length}`);
  for (const finding of acted) lines.push(`  - #${finding.incidentId}: ${finding.action}`);
  for (const finding of report.findings.filter((f) => !acted.includes(f)))
    lines.push(`  ! #${finding.incidentId} needs you: ${finding.action}`);
  if (report.recoveryPaused) lines.push('', `⚠ ${report.recoveryPaused}`);
  lines.push('', `Unresolved incidents: ${report.activeIncidents}   last 24 h: ${report.recentIncidents}`);
  return box('HEALTH CHECK REPORT', lines);
}

interface CheckOptions {
  journal: string;
  json?: boolean;
  watch?: boolean;
  interval: number;
  count?: number;
  maxIncidentsPerHour?: number;
  heartbeatTimeout?: number;
  maxRecoveryAttempts?: number;
  recover: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function healthCommand(io: CliIO, setExit: (code: number) => void): Command {
  const check = new Command('check')
    .description(
      'Find what crashed or hung runners left behind (orphaned steps, hanging attempts, zombie and dead runners), record an incident for each, and recover what is safe to recover.',
    )
    .addOption(journalOption())
    .option('--json', 'print the report as JSON')
    .option('--watch', 'check again every --interval seconds until interrupted')
    .option('--interval <s>', 'seconds between checks with --watch', positiveInt('--interval'), 5)
    .option('--count <n>', 'with --watch, stop after n checks', positiveInt('--count'))
    .option(
      '--max-incidents-per-hour <n>',
      'past this many incidents in an hour, record but do not recover (default 10)',
      positiveInt('--max-incidents-per-hour'),
    )
    .option(
      '--heartbeat-timeout <s>',
      'a live runner silent this long is a zombie (default 30)',
      positiveInt('--heartbeat-timeout'),
    )
    .option(
      '--max-recovery-attempts <n>',
      'skip a step after this many interruptions (default 3)',
      positiveInt('--max-recovery-attempts'),
    )
    .option('--no-recover', 'only detect and record; reset nothing')
    .addHelpText(
      'after',
      `
Exit codes: 0 healthy, or every finding recovered; 1 something needs an operator (a zombie or hanging runner, or recovery paused); 2 usage error.

Examples:
  $ verbtree health check
  $ verbtree health check --journal runs/bot1.db --json
  $ verbtree health check --watch --interval 10`,
    )
    .action(async (options: CheckOptions) => {
      const journal = await openJournalFor(options.journal);
      const config: HealthConfigInput = {
        autoRecover: options.recover,
        ...(options.maxIncidentsPerHour ? { maxIncidentsPerHour: options.maxIncidentsPerHour } : {}),
        ...(options.heartbeatTimeout ? { runnerHeartbeatTimeoutMs: options.heartbeatTimeout * 1000 } : {}),
        ...(options.maxRecoveryAttempts ? { maxRecoveryAttempts: options.maxRecoveryAttempts } : {}),
      };
      try {
        for (let n = 1; ; n++) {
          const report = await runHealthCheck(journal, { config });
          io.out(options.json ? JSON.stringify(report, null, 2) : healthReportText(report, journal.location));
          setExit(report.status === 'unhealthy' ? EXIT.failed : EXIT.ok);
          if (!options.watch || (options.count !== undefined && n >= options.count)) break;
          await sleep(options.interval * 1000);
        }
      } finally {
        await journal.close();
      }
    });
  return new Command('health')
    .description('Health of the runners and runs recorded in the journal.')
    .addCommand(check)
    .addHelpText(
      'after',
      `
Examples:
  $ verbtree health check`,
    );
}
