import type { HealthConfig } from '../health-config.js';
import type { HealthFinding } from '../health-types.js';
import { WORKER_RUNNER_KIND } from '../rows.js';
import { openIncident, resolveIncident } from './record.js';
import { all, count, get, type Tx } from './tx.js';

/**
 * The health sweep's fleet checks. A fleet worker is judged by its leases, never by a process id: a worker may run
 * on another machine, or in a network namespace that shares this host's name and pid space. A lease
 * that lapsed without a release means its holder stopped renewing: it died, was cut off from the journal, or fenced
 * itself. Nothing here moves a bot's plan on: the bot's next holder resumes it, checking its steps against the world.
 */

export interface FleetSweep {
  config: HealthConfig;
  now: number;
  findings: HealthFinding[];
}

const seconds = (ms: number) => `${Math.round(ms / 1000)}s`;

interface LapsedLease {
  bot: string;
  holder: string;
  epoch: number;
  expires_at: number;
  plan: string | null;
  queued: number;
}

interface OpenFleetIncident {
  id: number;
  failure_mode: 'expired_lease' | 'dead_worker';
  runner_id: string;
  details: string | null;
}

/**
 * Leases that lapsed without a release (an `expired_lease` incident per bot and epoch, resolved once the bot is held
 * again or released) and workers none of whose leases is live any more (a `dead_worker` incident per holder,
 * resolved once it holds a lease again or none of its leases is left lapsed; a registered worker runner is left to
 * the runners' check).
 */
export function* checkLeases(sweep: FleetSweep): Tx<void> {
  const lapsed = yield* all<LapsedLease>(
    `SELECT l.bot, l.holder, l.epoch, l.expires_at,
       (SELECT p.plan_id FROM plans p WHERE p.bot = l.bot AND p.status IN ('running', 'interrupted') ORDER BY p.updated_at DESC LIMIT 1) AS plan,
       (SELECT COUNT(*) FROM plans p WHERE p.bot = l.bot AND p.status = 'queued') AS queued
     FROM bot_leases l WHERE l.holder IS NOT NULL AND l.expires_at <= ? ORDER BY l.holder, l.bot`,
    sweep.now,
  );
  const open = yield* all<OpenFleetIncident>(
    "SELECT id, failure_mode, runner_id, details FROM incidents WHERE failure_mode IN ('expired_lease', 'dead_worker') AND resolved_at IS NULL",
  );
  const leaseKey = (bot: string, epoch: number) => `${bot}#${epoch}`;
  const lapsedKeys = new Set(lapsed.map((l) => leaseKey(l.bot, Number(l.epoch))));
  const lapsedHolders = new Set(lapsed.map((l) => l.holder));
  const openLeases = new Set<string>();
  const openWorkers = new Set<string>();
  for (const incident of open) {
    if (incident.failure_mode === 'expired_lease') {
      const { bot, epoch } = JSON.parse(incident.details ?? '{}') as { bot: string; epoch: number };
      if (lapsedKeys.has(leaseKey(bot, epoch))) openLeases.add(leaseKey(bot, epoch));
      else yield* resolveIncident(incident.id, yield* leaseNow(bot));
    } else if (lapsedHolders.has(incident.runner_id) && !(yield* holdsLiveLease(incident.runner_id, sweep.now)))
      openWorkers.add(incident.runner_id);
    else yield* resolveIncident(incident.id, `worker ${incident.runner_id} holds a lease again, or no lapsed one`);
  }
  for (const lease of lapsed)
    if (!openLeases.has(leaseKey(lease.bot, Number(lease.epoch)))) yield* expiredLease(sweep, lease);
  for (const holder of lapsedHolders)
    if (!openWorkers.has(holder) && !(yield* holdsLiveLease(holder, sweep.now)) && !(yield* isWorkerRunner(holder)))
      yield* deadWorker(
        sweep,
        holder,
        lapsed.filter((l) => l.holder === holder),
      );
}

/**
 * A holder registered as a `verbtree worker` runner is judged by the runners' check, by its heartbeat and its leases
 * (`dead_runner`, `zombie_runner`): a second finding here would say the same death twice.
 */
function* isWorkerRunner(holder: string): Tx<boolean> {
  return (yield* count('SELECT COUNT(*) AS n FROM runners WHERE id = ? AND kind = ?', holder, WORKER_RUNNER_KIND)) > 0;
}

function* holdsLiveLease(holder: string, now: number): Tx<boolean> {
  return (yield* count('SELECT COUNT(*) AS n FROM bot_leases WHERE holder = ? AND expires_at > ?', holder, now)) > 0;
}

/** How a lapsed lease was settled: the bot claimed again, or given back. */
function* leaseNow(bot: string): Tx<string> {
  const row = yield* get<{ holder: string | null; epoch: number }>(
    'SELECT holder, epoch FROM bot_leases WHERE bot = ?',
    bot,
  );
  return row?.holder ? `bot ${bot} is held again, by ${row.holder} (epoch ${row.epoch})` : `bot ${bot} was released`;
}

function* expiredLease(sweep: FleetSweep, lease: LapsedLease): Tx<void> {
  const agoMs = sweep.now - lease.expires_at;
  const queued = Number(lease.queued);
  const work = [lease.plan ? `plan ${lease.plan} unfinished` : null, queued > 0 ? `${queued} queued` : null].filter(
    (w) => w !== null,
  );
  const id = yield* openIncident({
    planId: lease.plan,
    runnerId: lease.holder,
    mode: 'expired_lease',
    details: { bot: lease.bot, holder: lease.holder, epoch: Number(lease.epoch), expiredAt: lease.expires_at, queued },
  });
  sweep.findings.push({
    mode: 'expired_lease',
    incidentId: id,
    ...(lease.plan ? { planId: lease.plan } : {}),
    runnerId: lease.holder,
    summary: `bot ${lease.bot}'s lease (worker ${lease.holder}, epoch ${lease.epoch}) lapsed ${seconds(agoMs)} ago${work.length > 0 ? `: ${work.join(', ')}` : ''}`,
    action:
      'none automatic: a worker with spare capacity (verbtree worker --capacity N) takes the bot within its claim interval, and resumes its plan there',
  });
}

function* deadWorker(sweep: FleetSweep, holder: string, leases: readonly LapsedLease[]): Tx<void> {
  const lastExpiry = Math.max(...leases.map((l) => l.expires_at));
  const bots = leases.map((l) => l.bot);
  const id = yield* openIncident({
    runnerId: holder,
    mode: 'dead_worker',
    details: { holder, bots, lastExpiry, silentMs: sweep.now - lastExpiry },
  });
  sweep.findings.push({
    mode: 'dead_worker',
    incidentId: id,
    runnerId: holder,
    summary: `worker ${holder} renews no lease: its leases on ${bots.join(', ')} lapsed, the last ${seconds(sweep.now - lastExpiry)} ago (it died, was cut off from the journal, or fenced itself)`,
    action: `none automatic: its bots go to workers with spare capacity; start ${holder} again, or another worker with --capacity`,
  });
}

/**
 * An in-progress step of a bot nobody holds: an `orphaned_step` incident, once, and nothing moved: the bot's next
 * holder resumes the plan, checking the step's effects against the world before it would run it again.
 */
export function* fleetOrphan(
  sweep: FleetSweep,
  step: { plan_id: string; step_id: string; verb: string; runner_id: string | null; updated_at: number },
  bot: string,
): Tx<void> {
  const known = yield* get<{ id: number }>(
    "SELECT id FROM incidents WHERE plan_id = ? AND step_id = ? AND failure_mode = 'orphaned_step' AND resolved_at IS NULL",
    step.plan_id,
    step.step_id,
  );
  if (known) return;
  const id = yield* openIncident({
    planId: step.plan_id,
    stepId: step.step_id,
    runnerId: step.runner_id,
    mode: 'orphaned_step',
    details: { bot, runnerId: step.runner_id, inProgressForMs: sweep.now - step.updated_at },
  });
  sweep.findings.push({
    mode: 'orphaned_step',
    incidentId: id,
    planId: step.plan_id,
    stepId: step.step_id,
    ...(step.runner_id ? { runnerId: step.runner_id } : {}),
    summary: `${step.plan_id}/${step.step_id} (${step.verb}) in progress on bot ${bot}, which no worker holds`,
    action: `left for bot ${bot}'s next holder, which resumes the plan and checks the step against the world`,
  });
}

/** Resolves the orphaned-step incidents of fleet bots whose step a holder has since moved on. */
export function* settleFleetOrphans(): Tx<void> {
  const settled = yield* all<{ id: number; status: string }>(
    `SELECT i.id, s.status FROM incidents i JOIN plans p ON p.plan_id = i.plan_id
       JOIN steps s ON s.plan_id = i.plan_id AND s.step_id = i.step_id
     WHERE i.failure_mode = 'orphaned_step' AND i.resolved_at IS NULL AND p.bot IS NOT NULL AND s.status != 'in_progress'`,
  );
  for (const incident of settled)
    yield* resolveIncident(incident.id, `the bot's holder resumed the plan: the step is ${incident.status} now`);
}
