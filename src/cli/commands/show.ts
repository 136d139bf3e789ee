import { Command } from 'commander';
import { planProvenance, type PlanProvenance, type StepProvenance } from '../../journal/queries.js';
import type { WorldSnapshot } from '../../journal/world-snapshot.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';
import { formatTime, journalOption, openJournalFor } from './journal-option.js';

const clock = (ms: number | null) => (ms === null ? '–' : formatTime(ms).slice(11));
const brief = (json: string | null) =>
  json === null || json === 'null' ? '' : json.length > 80 ? `${json.slice(0, 77)}...` : json;

function effectLine(post: string, blocks: string): string {
  const bot = JSON.parse(post) as WorldSnapshot;
  const changed = JSON.parse(blocks) as { x: number; y: number; z: number; name: string }[];
  const inventory =
    Object.entries(bot.inventory)
      .map(([item, count]) => `${count} ${item}`)
      .join(', ') || 'empty';
  const at = `(${bot.position.x.toFixed(1)}, ${bot.position.y.toFixed(1)}, ${bot.position.z.toFixed(1)})`;
  return `effects: bot at ${at}, inventory ${inventory}${changed.length ? `; blocks ${changed.map((b) => `${b.x},${b.y},${b.z}→${b.name}`).join(' ')}` : ''}`;
}

function stepLines(entry: StepProvenance, depth: number): string[] {
  const { step } = entry;
  const pad = '  '.repeat(depth);
  const lines = [
    `${pad}${depth ? '↳ ' : '• '}${step.step_id}  ${step.verb}@${step.capability_version ?? '?'}  ${step.status}${step.outcome_code && step.outcome_code !== 'ok' ? ` (${step.outcome_code})` : ''}` +
      `  TTFA ${step.ttfa_ms === null ? '–' : `${Math.round(step.ttfa_ms)} ms`}${step.duration_ms === null ? '' : `  ${(step.duration_ms / 1000).toFixed(1)}s`}`,
  ];
  if (step.args)
    lines.push(`${pad}    args ${brief(step.args)}${step.idempotency_key ? `  key ${step.idempotency_key}` : ''}`);
  lines.push(
    `${pad}    ${entry.transitions.map((t) => `${t.to_status} ${clock(t.at)}${t.reason && t.to_status !== 'in_progress' ? ` (${t.reason})` : ''}`).join(' → ')}`,
  );
  for (const attempt of entry.attempts) {
    lines.push(
      `${pad}    attempt ${attempt.number}${attempt.run_id ? ` [run ${attempt.run_id}]` : ''}: ${attempt.outcome ?? 'open'} ${clock(attempt.started_at)}–${clock(attempt.ended_at)}${attempt.detail ? ` ${attempt.detail}` : ''}`,
    );
    for (const action of attempt.actions)
      lines.push(
        `${pad}      ${clock(action.started_at)} ${action.command} ${brief(action.args)}${action.error ? ` ✗ ${action.error}` : action.settled_at === null ? ' (never settled)' : ''}`,
      );
  }
  for (const effect of entry.effects) lines.push(`${pad}    ${effectLine(effect.post, effect.blocks)}`);
  for (const note of entry.branches) lines.push(`${pad}    ⑂ ${note}`);
  // A branch's repair is told by its note above; every other repair (a rung, an unstuck move, a defence) here.
  for (const repair of entry.repairs)
    if (!repair.strategy.startsWith('branch:')) lines.push(`${pad}    ⚒ ${repair.strategy} (after ${repair.code})`);
  for (const incident of entry.incidents)
    lines.push(`${pad}    ! incident #${incident.id} ${incident.failure_mode}: ${incident.resolution ?? 'unresolved'}`);
  return lines;
}

/** How one run of the plan ended, as `runs` says it: a cancelled run is cancelled, whatever its steps' code. */
function runEnd(run: PlanProvenance['runs'][number]): string {
  if (run.ended_at === null) return 'running';
  if (run.ok) return 'ok';
  return run.cancelled_at !== null ? 'cancelled' : (run.code ?? 'failed');
}

/** The plan's steps a server's restart undid, when it has any: they no longer hold in the world. */
function retractedLine(p: PlanProvenance): string[] {
  const retracted = p.steps.filter((s) => s.step.status === 'retracted').map((s) => s.step.step_id);
  return retracted.length === 0
    ? []
    : [
        `retracted ${retracted.join(', ')}: a server restart undid ${retracted.length === 1 ? 'it' : 'them'} (see each step)`,
      ];
}

export function provenanceText(p: PlanProvenance): string {
  const lines = [
    `plan ${p.plan.plan_id}: ${p.plan.status}`,
    `intent ${p.plan.intent_id ?? '–'}${p.intent?.goal ? `: "${p.intent.goal}" (${p.intent.source})` : ''}`,
    ...(p.plan.world ? [`world ${p.plan.world}`] : []),
    `runs ${p.runs.map((r) => `#${r.id}${r.resumed ? ' resumed' : ''} ${runEnd(r)}`).join(', ') || '–'}`,
    ...retractedLine(p),
    '',
  ];
  // Tree order: each sub-goal right under the step that needed it.
  const walk = (parent: string | null, depth: number): void => {
    for (const entry of p.steps.filter((s) => s.step.parent_step_id === parent)) {
      lines.push(...stepLines(entry, depth));
      walk(entry.step.step_id, depth + 1);
    }
  };
  walk(null, 0);
  return lines.join('\n');
}

export function showCommand(io: CliIO, setExit: (code: number) => void): Command {
  return new Command('show')
    .description(
      'The provenance of a journaled plan, step by step: intent → plan → step → capability@version → attempts and actions → effects, with incidents.',
    )
    .argument('<planId>', 'the plan to show (`verbtree runs` lists them)')
    .addOption(journalOption())
    .option('--json', 'print the whole chain as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ verbtree show acquire-wood
  $ verbtree show acquire-wood --journal runs/bot1.db --json`,
    )
    .action(async (planId: string, options: { journal: string; json?: boolean }) => {
      const journal = await openJournalFor(options.journal);
      try {
        const provenance = await planProvenance(journal, planId);
        if (!provenance)
          throw new CliUsageError(
            `no plan "${planId}" in ${journal.location}; \`verbtree runs --journal ${journal.location}\` lists the journaled plans`,
          );
        io.out(options.json ? JSON.stringify(provenance, null, 2) : provenanceText(provenance));
        setExit(EXIT.ok);
      } finally {
        await journal.close();
      }
    });
}
