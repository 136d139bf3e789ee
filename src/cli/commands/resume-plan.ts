import { dirname, join } from 'node:path';
import { runHealthCheck } from '../../journal/health-check.js';
import { DEFAULT_JOURNAL_PATH, type Journal } from '../../journal/journal.js';
import { isPostgresUrl } from '../../journal/journal-spec.js';
import { distrustUnsavedSteps, ResumeError, resumePoint } from '../../journal/resume.js';
import type { PlanRow } from '../../journal/rows.js';
import { type CliIO, CliUsageError } from '../io.js';
import { openWorld, type OpenedWorld, type WorldChoice } from '../open-world.js';
import { choiceOf, notTheSameWorld, worldSavedAt } from '../world-identity.js';
import { WorldDescriptor, worldKind } from '../worlds.js';

export interface ResumeChoice extends WorldChoice {
  journal: string;
  resume: string;
  restart?: boolean;
  overrideIncidentCap?: boolean;
  json?: boolean;
}

export interface PreparedStart {
  plan: unknown;
  opened: OpenedWorld;
  /** True when the plan continues its journaled line of runs; false for a restart from its first step. */
  resumed: boolean;
}

/**
 * Where a journaled embedded run keeps its world unless --world-folder says otherwise: beside a SQLite journal, or
 * under .verbtree/ for a PostgreSQL one (a world folder is on the machine that runs the bot, not in the database).
 */
export function defaultWorldFolder(journal: string, planId: string): string {
  const base = isPostgresUrl(journal) ? dirname(DEFAULT_JOURNAL_PATH) : dirname(journal);
  return join(base, 'worlds', planId.replace(/[^A-Za-z0-9._-]/g, '_'));
}

const restartHint = (planId: string) =>
  `run it again from its first step with \`verbtree run --resume ${planId} --restart\``;

/**
 * Everything a resume does before the executor starts, the plan's lease being
 * held: refuse a world that cannot be the one the plan ran in, distrust steps
 * whose effects a world on disk may not have kept, recover orphans (past the
 * incident cap only when asked), read what is left and reopen the world. With
 * --restart: the journaled plan from its first step, in a fresh world made as
 * the journal says.
 */
export async function prepareResume(journal: Journal, options: ResumeChoice, io: CliIO): Promise<PreparedStart> {
  const planId = options.resume;
  const say = (line: string) => {
    if (!options.json) io.out(line);
  };
  const row = await journal.plan(planId);
  if (!row) await rethrow(() => resumePoint(journal, planId));
  const raw: unknown = row!.world ? JSON.parse(row!.world) : null;
  if (options.restart) return restart(journal, row!, raw, options, say);

  const parsed = WorldDescriptor.safeParse(raw);
  if (!parsed.success) {
    throw new CliUsageError(
      `plan "${planId}" was journaled without the identity of the world it ran in (${raw ? 'by an older verbtree' : 'no world recorded'}), so a resume cannot tell whether this is the same world; ${restartHint(planId)}`,
    );
  }
  const descriptor = parsed.data;
  const problem = notTheSameWorld(descriptor);
  if (problem)
    throw new CliUsageError(`cannot resume plan "${planId}" in the same world: ${problem}; ${restartHint(planId)}`);

  const savedAt = worldSavedAt(descriptor);
  if (savedAt !== undefined) {
    const distrusted = await distrustUnsavedSteps(journal, planId, savedAt);
    if (distrusted.length)
      say(
        `not trusted: ${distrusted.join(', ')} succeeded after the world was last saved; checked again against the world`,
      );
  }
  await recoverOrphans(journal, planId, options, say);
  const point = await rethrow(() => resumePoint(journal, planId), options.overrideIncidentCap === true);
  if (point.escalation) {
    const { planner, rung, failedStepId } = point.escalation;
    say(
      rung === 0
        ? `plan ${planId}'s remaining steps were replaced by the ${planner} ${failedStepId ? `after ${failedStepId}` : 'before its first step'}: continuing the replacement`
        : `plan ${planId} was escalated before it stopped: continuing the replacement planner ${planner} sent at rung ${rung} after ${failedStepId} failed`,
    );
  }
  say(
    `resuming plan ${planId}: done ${point.done.join(', ') || '–'}; skipped ${point.skipped.join(', ') || '–'}; to run ${point.plan.steps.map((s) => s.stepId).join(', ') || '–'}`,
  );
  const opened = await worldKind(descriptor.world).reopen(descriptor, { journal, planId });
  return { plan: point.plan, opened, resumed: true };
}

/**
 * The health check before reading what is left; past the incidents-per-hour cap it recovers only when asked, and the
 * override is an incident.
 */
async function recoverOrphans(
  journal: Journal,
  planId: string,
  options: ResumeChoice,
  say: (line: string) => void,
): Promise<void> {
  let report = await runHealthCheck(journal);
  for (const finding of report.findings) say(`journal: ${finding.mode}: ${finding.summary} → ${finding.action}`);
  if (!report.recoveryPaused || !options.overrideIncidentCap) return;
  const id = await journal.openIncident({
    planId,
    mode: 'incident_cap_override',
    details: { paused: report.recoveryPaused, recentIncidents: report.recentIncidents, pid: process.pid },
  });
  report = await runHealthCheck(journal, { config: { maxIncidentsPerHour: Number.MAX_SAFE_INTEGER } });
  await journal.resolveIncident(
    id,
    `recovery ran past the incidents-per-hour cap for one resume of ${planId} (--override-incident-cap)`,
  );
  say(
    `--override-incident-cap: ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'} recovered past the cap (recorded as incident ${id})`,
  );
  for (const finding of report.findings) say(`journal: ${finding.mode}: ${finding.summary} → ${finding.action}`);
}

async function rethrow<T>(read: () => Promise<T>, overridden = true): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof ResumeError)) throw error;
    const paused = error.stepsInProgress && !overridden;
    throw new CliUsageError(
      `${error.message}${paused ? '; to recover past the incidents-per-hour cap for this resume only, add --override-incident-cap (recorded as an incident)' : ''}`,
    );
  }
}

/**
 * --restart: the journaled plan from its first step, journaled as a new run, in a world made afresh the way the journal
 * says it was.
 */
async function restart(
  journal: Journal,
  row: PlanRow,
  raw: unknown,
  options: ResumeChoice,
  say: (line: string) => void,
): Promise<PreparedStart> {
  if (!row.body || row.body === 'null')
    throw new CliUsageError(
      `plan "${row.plan_id}" was journaled without its steps (it was never accepted); run it again from its file instead`,
    );
  await recoverOrphans(journal, row.plan_id, options, say);
  const was = choiceOf(raw);
  const world = was.world ?? options.world;
  const choice: WorldChoice = {
    world,
    seed: was.seed ?? options.seed,
    ...((was.scenario ?? options.scenario) ? { scenario: (was.scenario ?? options.scenario)! } : {}),
    ...((was.host ?? options.host) ? { host: (was.host ?? options.host)! } : {}),
    ...((was.port ?? options.port) ? { port: (was.port ?? options.port)! } : {}),
    ...((was.username ?? options.username) ? { username: (was.username ?? options.username)! } : {}),
    ...((was.version ?? options.version) ? { version: (was.version ?? options.version)! } : {}),
    ...((was.isolate ?? options.isolate) ? { isolate: true } : {}),
  };
  if (worldKind(world).reads.includes('worldFolder')) {
    // A folder verbtree made for the plan starts afresh; one the user named keeps its world, and the plan runs again in
    // it.
    const folder = was.worldFolder ?? defaultWorldFolder(options.journal, row.plan_id);
    choice.worldFolder = { path: folder, mode: was.worldFolder && was.managed === false ? 'keep' : 'fresh' };
  }
  say(`restarting plan ${row.plan_id} from its first step as a new run`);
  return { plan: JSON.parse(row.body) as unknown, opened: await openWorld(choice), resumed: false };
}
