import { dirname, join } from 'node:path';
import { systemClock } from '../../clock/system-clock.js';
import { runHealthCheck } from '../../journal/health-check.js';
import type { Journal } from '../../journal/journal.js';
import { distrustUnsavedSteps, ResumeError, resumePoint } from '../../journal/resume.js';
import type { PlanRow } from '../../journal/rows.js';
import { simWorldFromJournal } from '../../journal/sim-restore.js';
import { readSavedAt } from '../../world/embedded/world-folder.js';
import { loadScenario } from '../../world/scenario/load.js';
import { type CliIO, CliUsageError } from '../io.js';
import { openWorld, simIdentity, type OpenedWorld, type WorldChoice } from '../open-world.js';
import { choiceOf, notTheSameWorld, WorldDescriptor } from '../world-identity.js';

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

/** Where a journaled embedded run keeps its world unless --world-folder says otherwise. */
export function defaultWorldFolder(journalPath: string, planId: string): string {
  return join(dirname(journalPath), 'worlds', planId.replace(/[^A-Za-z0-9._-]/g, '_'));
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
  const row = journal.sql('SELECT * FROM plans WHERE plan_id = ?').get(planId) as PlanRow | undefined;
  if (!row) rethrow(() => resumePoint(journal, planId));
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

  if (descriptor.world === 'embedded' && descriptor.worldFolder) {
    const savedAt = readSavedAt(descriptor.worldFolder) ?? 0;
    const distrusted = distrustUnsavedSteps(journal, planId, savedAt);
    if (distrusted.length)
      say(
        `not trusted: ${distrusted.join(', ')} succeeded after the world was last saved; checked again against the world`,
      );
  }
  recoverOrphans(journal, planId, options, say);
  const point = rethrow(() => resumePoint(journal, planId), options.overrideIncidentCap === true);
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
  return { plan: point.plan, opened: await reopen(journal, planId, descriptor), resumed: true };
}

/**
 * The health check before reading what is left; past the incidents-per-hour cap it recovers only when asked, and the
 * override is an incident.
 */
function recoverOrphans(journal: Journal, planId: string, options: ResumeChoice, say: (line: string) => void): void {
  let report = runHealthCheck(journal);
  for (const finding of report.findings) say(`journal: ${finding.mode}: ${finding.summary} → ${finding.action}`);
  if (!report.recoveryPaused || !options.overrideIncidentCap) return;
  const id = journal.openIncident({
    planId,
    mode: 'incident_cap_override',
    details: { paused: report.recoveryPaused, recentIncidents: report.recentIncidents, pid: process.pid },
  });
  report = runHealthCheck(journal, { config: { maxIncidentsPerHour: Number.MAX_SAFE_INTEGER } });
  journal.resolveIncident(
    id,
    `recovery ran past the incidents-per-hour cap for one resume of ${planId} (--override-incident-cap)`,
  );
  say(
    `--override-incident-cap: ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'} recovered past the cap (recorded as incident ${id})`,
  );
  for (const finding of report.findings) say(`journal: ${finding.mode}: ${finding.summary} → ${finding.action}`);
}

function rethrow<T>(read: () => T, overridden = true): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ResumeError)) throw error;
    const paused = error.stepsInProgress && !overridden;
    throw new CliUsageError(
      `${error.message}${paused ? '; to recover past the incidents-per-hour cap for this resume only, add --override-incident-cap (recorded as an incident)' : ''}`,
    );
  }
}

/**
 * The same world again. A SimWorld died with its process: it is rebuilt from
 * the scenario and the effects of the current line's verified steps (the world
 * the last verified step left; a step killed midway runs again). An embedded
 * world reopens from its folder, the scenario not laid out again. A remote
 * server kept its world.
 */
async function reopen(journal: Journal, planId: string, descriptor: WorldDescriptor): Promise<OpenedWorld> {
  if (descriptor.world === 'remote') return openWorld({ ...descriptor, world: 'remote' });
  if (descriptor.world === 'embedded') {
    const { scenario, worldFolder, username, version, isolate, seed } = descriptor;
    const opened = await openWorld({
      world: 'embedded',
      seed,
      username,
      version,
      isolate,
      worldFolder: { path: worldFolder!, mode: 'keep' },
      ...(scenario && scenario.sha256 !== 'missing' ? { scenario: scenario.path } : {}),
    });
    return { ...opened, descriptor };
  }
  const scenario = descriptor.scenario
    ? await loadScenario(descriptor.scenario.path).catch((error: Error) =>
        Promise.reject(new CliUsageError(error.message)),
      )
    : undefined;
  const world = simWorldFromJournal(journal, planId, {
    clock: systemClock,
    seed: descriptor.seed,
    ...(scenario ? { scenario } : {}),
  });
  return {
    world,
    clock: systemClock,
    describe: `SimWorld rebuilt from the journal (seed ${descriptor.seed}${scenario ? `, scenario ${scenario.name}` : ''} + effects of this line's verified steps)`,
    descriptor: { ...descriptor, identity: simIdentity(descriptor.seed, descriptor.scenario?.sha256) },
    protect: scenario?.protected ?? [],
    close: () => world.close(),
  };
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
  recoverOrphans(journal, row.plan_id, options, say);
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
  if (world === 'embedded') {
    // A folder verbtree made for the plan starts afresh; one the user named keeps its world, and the plan runs again in
    // it.
    const folder = was.worldFolder ?? defaultWorldFolder(options.journal, row.plan_id);
    choice.worldFolder = { path: folder, mode: was.worldFolder && was.managed === false ? 'keep' : 'fresh' };
  }
  say(`restarting plan ${row.plan_id} from its first step as a new run`);
  return { plan: JSON.parse(row.body) as unknown, opened: await openWorld(choice), resumed: false };
}
