/**
 * The live view's state of one bot, folded from the event stream: the bot, its current plan, its steps and tree runs.
 */

export type NodeState = 'ready' | 'running' | 'succeeded' | 'failed';

export interface StepView {
  stepId: string;
  verb: string;
  parentStepId?: string;
  status: 'running' | 'ok' | 'failed';
  ttfaMs: number | null;
  durationMs: number | null;
  code?: string;
  detail?: string;
  attempts: number;
  retries: number;
  repairs: number;
  notes: string[];
  /** Where the step stood at its last `step.progress`: "3/4 oak_log", "12 blocks left". */
  progress?: string;
}

export interface TreeRunView {
  runId: number;
  tree: string;
  stepId?: string;
  states: Record<string, NodeState>;
  /** When (page time) each running node started running, for watchdog countdowns. */
  since: Record<string, number>;
  trips: { nodePath: string; kind: string; code: string }[];
  outcome?: { ok: boolean; code?: string; detail?: string; nodePath?: string };
}

/** A fleet bot's plan waiting for a worker, as `/api/bots` and `bots.state` samples carry it (`waiting`). */
export interface PlanWait {
  planId: string;
  reason: string;
  detail: string;
  since: number;
}

/** The agent state the monitor shows for a bot whose plan waits for a worker, whatever its holder last reported. */
export const QUEUED = 'QUEUED';

export interface Model {
  name: string;
  agent: string;
  bot: {
    position?: { x: number; y: number; z: number };
    health?: number;
    food?: number;
    connected?: boolean;
    /** On a fleet gateway: the worker that holds the bot's lease. */
    holder?: string;
    /** On a fleet gateway: its plan queued for a worker, why (none holds it, or its holder has no headroom), since when. */
    waiting?: PlanWait;
  };
  trail: { x: number; z: number }[];
  planId?: string;
  planState: string;
  steps: StepView[];
  runs: Map<number, TreeRunView>;
  focus?: number;
  log: string[];
}

export function emptyModel(name: string): Model {
  return { name, agent: 'IDLE', bot: {}, trail: [], planState: '', steps: [], runs: new Map(), log: [] };
}

const MAX_LOG = 200;
const MAX_STEPS = 500;
const MAX_TRAIL = 2000;

type Message = Record<string, unknown> & { type?: string };

/** Applies one message of the stream about this bot to its model (mutating it; the caller re-renders). */
export function apply(model: Model, message: Message): void {
  const type = String(message.type ?? '');
  if (type === 'nodes') return nodes(model, message);
  const stepId = message.stepId as string | undefined;
  const step = stepId ? model.steps.findLast((s) => s.stepId === stepId) : undefined;
  switch (type) {
    case 'plan.accepted':
      model.planId = String(message.planId);
      model.planState = 'running';
      model.steps = [];
      model.runs.clear();
      model.focus = undefined;
      model.trail = [];
      break;
    // The idempotency check ends a step before it starts: step.refused and step.deduplicated come with no step.started.
    case 'step.started':
    case 'step.refused':
    case 'step.deduplicated': {
      const holder = message.holder as { planId?: string; stepId?: string } | undefined;
      model.steps.push({
        stepId: stepId!,
        verb: String(message.verb),
        ...(message.parentStepId ? { parentStepId: message.parentStepId as string } : {}),
        status: 'running',
        ttfaMs: null,
        durationMs: null,
        attempts: type === 'step.started' ? 1 : 0,
        retries: 0,
        repairs: 0,
        notes: holder
          ? [
              `${type === 'step.deduplicated' ? 'already done' : 'not started'}: key ${String(message.idempotencyKey)} held by ${holder.stepId} of ${holder.planId}`,
            ]
          : [],
      });
      if (model.steps.length > MAX_STEPS) model.steps.shift();
      break;
    }
    case 'step.firstAction':
      if (step) step.ttfaMs = Number(message.ttfaMs);
      break;
    case 'step.retry':
      if (step) {
        step.retries++;
        step.notes.push(`retry after ${message.code as string}`);
      }
      break;
    case 'step.repair':
      if (step) {
        step.repairs++;
        step.notes.push(`repair ${message.strategy as string} (${message.code as string})`);
      }
      break;
    case 'step.progress':
      if (step) step.progress = describeProgress(message);
      // A few a second while a step runs: the step row shows the latest, the log keeps the events that change course.
      return;
    case 'step.stuck':
      step?.notes.push(`stuck: ${message.detector as string} (${message.code as string})`);
      break;
    case 'step.preempted':
      step?.notes.push(`preempted by ${message.by as string}`);
      break;
    case 'plan.escalated': {
      // The last rung of the ladder: the failed step's note says the planner was asked.
      const failed = model.steps.findLast((s) => s.stepId === message.failedStepId);
      failed?.notes.push(
        `escalated to ${message.planner as string} (rung ${message.rung as number}, ${message.code as string})`,
      );
      break;
    }
    case 'step.subgoal':
      step?.notes.push(`sub-goals: ${(message.subgoalStepIds as string[]).join(', ')}`);
      break;
    case 'step.ended': {
      const outcome = message.outcome as { ok: boolean; code?: string; detail?: string };
      if (step)
        Object.assign(step, {
          status: outcome.ok ? 'ok' : 'failed',
          durationMs: Number(message.durationMs),
          attempts: Number(message.attempts),
          ...(outcome.ok ? {} : { code: outcome.code, detail: outcome.detail }),
        });
      break;
    }
    case 'agent.state':
      model.agent = String(message.to);
      break;
    case 'plan.paused':
      model.planState = 'paused';
      break;
    case 'plan.resumed':
      model.planState = 'running';
      break;
    case 'plan.ended':
      model.planState = (message.result as { ok: boolean }).ok
        ? 'succeeded'
        : `failed: ${(message.result as { code?: string }).code ?? ''}`;
      break;
  }
  if (type) model.log.push(`${type}${stepId ? ` ${stepId}` : ''}${message.code ? ` ${message.code as string}` : ''}`);
  if (model.log.length > MAX_LOG) model.log.splice(0, model.log.length - MAX_LOG);
}

/** A progress report in a few words: its own detail when it gave one, else its count ("3/4 oak_log"). */
function describeProgress(message: Message): string {
  if (typeof message.detail === 'string') return message.detail;
  const of = typeof message.total === 'number' ? `/${message.total}` : '';
  const unit = typeof message.unit === 'string' ? message.unit : '';
  return `${Number(message.done)}${of} ${unit}`.trim();
}

const numberOf = (value: unknown) => (typeof value === 'number' ? value : undefined);

/**
 * A sample of the bot as the server holds it now (`hello` and `bots.state` carry one per bot). A fleet gateway's
 * sample says what the bot's holder last reported, with nulls before its first report, and names the holder.
 */
export function botSample(model: Model, message: Message): void {
  const position = (message.position ?? undefined) as Model['bot']['position'];
  const [health, food] = [numberOf(message.health), numberOf(message.food)];
  const waiting = planWait(message.waiting);
  model.bot = {
    ...(position ? { position } : {}),
    ...(health !== undefined ? { health } : {}),
    ...(food !== undefined ? { food } : {}),
    connected: message.connected === true,
    ...(typeof message.holder === 'string' && message.held === true ? { holder: message.holder } : {}),
    ...(waiting ? { waiting } : {}),
  };
  if (waiting) model.agent = QUEUED;
  else if (typeof message.state === 'string') model.agent = message.state;
  // Taken by a worker that has not reported it yet, or its plan cancelled: it no longer waits, in a state not known.
  else if (model.agent === QUEUED) model.agent = emptyModel(model.name).agent;
  if (position) {
    const last = model.trail.at(-1);
    if (!last || last.x !== position.x || last.z !== position.z) model.trail.push({ x: position.x, z: position.z });
    if (model.trail.length > MAX_TRAIL) model.trail.shift();
  }
}

function planWait(value: unknown): PlanWait | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { planId, reason, detail, since } = value as Record<string, unknown>;
  if (typeof planId !== 'string' || typeof reason !== 'string' || typeof detail !== 'string') return undefined;
  return typeof since === 'number' ? { planId, reason, detail, since } : undefined;
}

/** A plan's wait as the monitor says it: "queued since 14:02:07 (plan p1): <why>". */
export function describeWait(wait: PlanWait): string {
  const at = new Date(wait.since).toISOString().slice(11, 19);
  return `queued since ${at} UTC (plan ${wait.planId}): ${wait.detail}`;
}

/** The run id of the tree read back from the journal; the stream's run ids are positive. */
const JOURNALED_RUN = -1;

/** A journaled node state row, as GET /api/runs/<planId>/nodes gives it. */
export interface NodeRow {
  id: number;
  stepId: string;
  attemptId: number | null;
  tree: string;
  at: number;
  changes: [string, NodeState][];
  eventId: number | null;
  position: { x: number; y: number; z: number } | null;
}

/**
 * The tree of the plan's last journaled step attempt, its nodes as they last stood, and the bot's trail: what a page
 * opened late draws first.
 */
export function journaledTree(model: Model, rows: readonly NodeRow[]): void {
  const last = rows.at(-1);
  if (!last) return;
  const states: Record<string, NodeState> = {};
  for (const row of rows)
    if (row.stepId === last.stepId && row.attemptId === last.attemptId)
      for (const [path, state] of row.changes) states[path] = state;
  model.runs.set(JOURNALED_RUN, {
    runId: JOURNALED_RUN,
    tree: last.tree,
    stepId: last.stepId,
    states,
    since: {},
    trips: [],
  });
  model.focus ??= JOURNALED_RUN;
  // Where the bot stood at each journaled change is its trail so far.
  const trail = rows.flatMap((row) => (row.position ? [{ x: row.position.x, z: row.position.z }] : []));
  model.trail = [...trail, ...model.trail].slice(-MAX_TRAIL);
}

function nodes(model: Model, message: Message): void {
  const now = performance.now();
  for (const run of message.runs as {
    runId: number;
    tree: string;
    states: Record<string, NodeState>;
    trips: TreeRunView['trips'];
    outcome?: TreeRunView['outcome'];
  }[]) {
    let view = model.runs.get(run.runId);
    if (!view) {
      // A tree run belongs to the innermost step running when it began.
      const owner = model.steps.findLast((s) => s.status === 'running');
      // The same tree run as read back from the journal (a page opened mid-step) keeps the states read there.
      const journaled = model.runs.get(JOURNALED_RUN);
      const carried =
        journaled && journaled.tree === run.tree && journaled.stepId === owner?.stepId ? journaled.states : {};
      view = {
        runId: run.runId,
        tree: run.tree,
        ...(owner ? { stepId: owner.stepId } : {}),
        states: { ...carried },
        since: {},
        trips: [],
      };
      model.runs.set(run.runId, view);
    }
    for (const [path, state] of Object.entries(run.states)) {
      if (state === 'running' && view.states[path] !== 'running') view.since[path] = now;
      view.states[path] = state;
    }
    view.trips.push(...run.trips);
    if (run.outcome) view.outcome = run.outcome;
    model.focus = run.runId;
  }
}
