import type { SafetyOverride } from '../contracts/plan-step.js';
import { isNight, type Vec3Like } from '../contracts/world.js';
import { dispatchQuery } from '../registry/effects.js';
import { climbingBlockCount } from '../kit/building-blocks.js';
import { healsByItself } from '../world/health-rules.js';
import type { StepRecord } from './events.js';
import { rankOnForks } from './branch-safety.js';
import { resolveStep } from './resolve-step.js';
import {
  centroid,
  type FastPathStep,
  type SafetySignal,
  shelterAround,
  type ShelterVerb,
  wayOutOf,
} from './safety/index.js';
import { describeDefence, type DefenceRun } from './defence-repair.js';
import type { InterruptVerdict } from './interrupts.js';
import { type BreachNote, breachSignal, breachWatch, describeBreaches, noteAnswer } from './shelter-breach.js';
import { FailedAtOnce } from './failed-at-once.js';
import { nestedStepId, type RunScope } from './scope.js';
import { stillHunted } from './shelter-night.js';
import { type ShelterWait, waitOutShelter } from './shelter-wait.js';

/** The shelters the bot waits in, and how a failure names where it is. */
export const SHELTERED: Readonly<Record<ShelterVerb, string>> = {
  pillar_up: 'up a pillar',
  wall_in: 'behind a wall',
  dig_in: 'dug in',
};

/**
 * Runs a step the executor itself decided on (a safety response or an unstuck
 * move) as a full step under `parentStepId`; null when the verb is not
 * registered or its guard refuses it here.
 */
export async function runHelperStep(...call: Parameters<typeof tryHelperStep>): Promise<StepRecord | null> {
  const run = await tryHelperStep(...call);
  return 'refused' in run ? null : run.record;
}

/** What a helper step takes from the step it runs for: its deadline and its combat policy. */
export interface HelperParent {
  deadlineCap?: number;
  combat?: SafetyOverride;
}

/** The HelperParent of a step's helpers: `deadlineCap` and the step's own combat policy, if it has one. */
export function helperParentOf(step: { combat?: SafetyOverride }, deadlineCap: number): HelperParent {
  return { deadlineCap, ...(step.combat !== undefined ? { combat: step.combat } : {}) };
}

/** A helper step's end (runHelperStep), or, when it never ran, why: its verb and args unresolved or its guard's reason. */
export type HelperRun = { record: StepRecord | null } | { refused: string };

export async function tryHelperStep(
  scope: RunScope,
  verb: string,
  args: Record<string, unknown>,
  parentStepId: string,
  tag: string,
  parent: HelperParent = {},
): Promise<HelperRun> {
  const resolved = resolveStep(scope.registry, {
    stepId: nestedStepId(scope, `${parentStepId}/${tag}-${verb}`),
    type: verb,
    args,
  });
  if (!resolved.ok) return { refused: resolved.detail };
  const observation = await scope.world.observe(dispatchQuery(resolved.spec, resolved.args));
  const guard = resolved.spec.guard({ world: scope.world, observation }, resolved.args);
  if (!guard.ok) return { refused: `its guard refused: ${guard.reason}` };
  const record = await scope.runStep({
    step: resolved.step,
    spec: resolved.spec,
    args: resolved.args,
    depth: 0,
    parentStepId,
    // A safety response is not itself preempted (a fight breaks off by its own rules); any other helper step is
    // watched as its parent is: a zombie that dropped into a pit beat a bot digging its unstuck moves out unanswered.
    preemptible: tag !== 'safety',
    ...(tag === 'safety' ? { judgedNow: true as const } : {}),
    ...(parent.deadlineCap !== undefined ? { deadlineCap: parent.deadlineCap } : {}),
    ...(parent.combat !== undefined ? { combat: parent.combat } : {}),
  });
  return { record };
}

/** What the rounds of one defence share: how many ran, what they built, what they met, and the breaches answered. */
interface Defence extends DefenceRun {
  stepId: string;
  options: { combat?: SafetyOverride };
  rounds: number;
  built: boolean;
  /** A shelter was built for low health: the wait also waits for the health to come back. */
  forHealth: boolean;
  /** The last signal answered: the bot comes out of its shelter away from its threats. */
  lastSeen: SafetySignal | null;
  failedAtOnce: FailedAtOnce;
  /** "hurt up a pillar by a spider (health 10 → 8): fought it", one per breach answered. */
  breaches: BreachNote[];
  /** Told once the shelter's wait is over, before the bot comes out. */
  comingOut?: () => void;
  /** At night the wait lasts until day (waitOutShelter's `untilDay`): a step before ended in this shelter. */
  untilDay?: boolean;
}

function newDefence(scope: RunScope, stepId: string, lastSeen: SafetySignal | null, combat?: SafetyOverride): Defence {
  const options = combat ? { combat } : {};
  return {
    stepId,
    options,
    rounds: 0,
    built: false,
    forHealth: false,
    lastSeen,
    failedAtOnce: new FailedAtOnce(scope),
    breaches: [],
    ran: [],
    met: new Map(),
    firstSignal: lastSeen?.signal ?? null,
  };
}

/**
 * Safety > goal: answers the signal with the first fast-path capability whose guard holds. A hostile is answered
 * round after round (the next zombie of a crowd, a chaser still close after a flight) until none can reach the bot or
 * `maxDefenseRounds` ran, so the step never resumes into a threat still at hand. A sheltered bot waits its shelter
 * out; a mob that gets at it there (a spider up its pillar, a skeleton in its hole) is answered in further rounds,
 * within the same bound.
 */
export async function runFastPath(
  scope: RunScope,
  threat: SafetySignal,
  interruptedStepId: string,
  combat?: SafetyOverride,
): Promise<InterruptVerdict> {
  const defence = newDefence(scope, interruptedStepId, threat, combat);
  const verdict = await defend(scope, defence, threat);
  const what = describeDefence(defence);
  return what ? { ...verdict, defence: what } : verdict;
}

/**
 * A bot left in its own shelter by a step that ended there waits it out before the next step as the fast path does
 * (breaches answered in rounds, within the same bound), at night until day, then comes out; `comingOut` is told first.
 */
export function holdShelterFirst(scope: RunScope, stepId: string, comingOut: () => void): Promise<InterruptVerdict> {
  const defence = { ...newDefence(scope, stepId, null), built: true, comingOut, untilDay: true };
  return defend(scope, defence, null);
}

async function defend(scope: RunScope, defence: Defence, threat: SafetySignal | null): Promise<InterruptVerdict> {
  let signal = threat;
  for (;;) {
    const answered = signal ? await answerRounds(scope, signal, defence) : null;
    const verdict: ShelterWait = answered ?? (await holdShelter(scope, defence));
    const { breach } = verdict;
    if (!breach) return naming(verdict, defence.breaches);
    if (!breach.signal) {
      const why = `${breach.what}, with no hostile the safety layer sees reaching it: the step ends rather than wait there`;
      return naming({ endStep: why }, defence.breaches);
    }
    if (defence.rounds >= scope.policy.safety.maxDefenseRounds)
      return naming(
        { endStep: `${breach.what} after ${plural(defence.rounds, 'defence round')}: the step ends` },
        defence.breaches,
      );
    signal = breachSignal(breach.signal, breach.what);
    defence.breaches.push({ what: breach.what });
  }
}

/**
 * The rounds: null when they end with a shelter built (waited in next), else the verdict (the step resumes, or ends).
 */
async function answerRounds(scope: RunScope, threat: SafetySignal, defence: Defence): Promise<InterruptVerdict | null> {
  const { failedAtOnce, stepId } = defence;
  let signal: SafetySignal | null = threat;
  for (; signal && defence.rounds < scope.policy.safety.maxDefenseRounds; defence.rounds++) {
    if (signal.assessment) scope.safety.tally.met(stepId, signal.assessment.threats);
    for (const { id, name } of signal.assessment?.threats ?? []) defence.met.set(id, name);
    const answered = await respond(scope, failedAtOnce.leftOf(signal), defence);
    if (scope.deaths.inPlanStep()) return { endStep: 'the bot died' };
    if (!answered && failedAtOnce.any()) return endAfterInstantFailures(scope, failedAtOnce);
    if (!answered || scope.signal.aborted) return {};
    noteAnswer(defence.breaches, answered);
    defence.built ||= isShelter(answered);
    defence.forHealth ||= signal.signal === 'low_health';
    defence.lastSeen = signal;
    // Any other signal gets one answer; a shelter built for low health is waited in and come out of (below).
    if (signal.signal !== 'hostile') {
      if (!defence.built) return {};
      break;
    }
    signal =
      scope.safety.threatRemaining(defence.options) ??
      (answered === 'flee' ? await stillHunted(scope, defence.options) : null);
  }
  return null;
}

/**
 * The shelter the bot stands in now, from any round (one that sheltered and then fought a spider that climbed to it is
 * still up its pillar), is waited out, then come out of; one it left (a flight off it) or never built (a natural nook)
 * is not. A breach ends the wait early, for the caller to answer.
 */
async function holdShelter(scope: RunScope, defence: Defence): Promise<ShelterWait> {
  const sheltered = defence.built ? shelterHere(scope) : null;
  if (!sheltered) return {};
  // Sheltered for low health, the bot also waits for its health to come back (the game heals a fed player a point
  // every 4 s), within the same wait; by day not once it is too hungry to heal, which no wait mends, but at night
  // until the day (the monitor's night shelter): a weak bot meets nothing out there but flights.
  const hurt = defence.forHealth
    ? async () =>
        scope.world.health() < scope.policy.safety.minHealth &&
        (healsByItself(scope.world.food()) || isNight((await scope.world.observe({ time: true })).timeOfDay ?? 0))
    : undefined;
  const watch = breachWatch(scope, SHELTERED[sheltered], defence.options);
  const waited = await waitOutShelter(scope, defence.stepId, SHELTERED[sheltered], defence.options, {
    ...(hurt ? { hurt } : {}),
    watch,
    untilDay: defence.untilDay ?? false,
    exit: (away) => {
      const exit = exitFound(scope, sheltered, away);
      return 'to' in exit ? exit.to : null;
    },
  });
  if (waited.breach || waited.endStep) return waited;
  defence.comingOut?.();
  const threats = defence.lastSeen?.assessment?.threats ?? [];
  return comeOut(
    scope,
    defence.stepId,
    sheltered,
    waited.awayFrom ?? (threats.length > 0 ? centroid(threats) : undefined),
  );
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** A verdict that ends the step names the breaches answered on the way. */
function naming(verdict: InterruptVerdict, breaches: readonly BreachNote[]): InterruptVerdict {
  if (!verdict.endStep || breaches.length === 0) return verdict;
  return { endStep: `${verdict.endStep}; ${describeBreaches(breaches)}` };
}

function isShelter(verb: string): verb is ShelterVerb {
  return verb in SHELTERED;
}

function terrainOf(scope: RunScope) {
  return { block: (x: number, y: number, z: number) => scope.world.blockAt({ x, y, z })?.name ?? null };
}

/** The shelter the bot stands in, read from the ground around it (whoever built it), or null in the open. */
export function shelterHere(scope: RunScope): ShelterVerb | null {
  return shelterAround(terrainOf(scope), scope.world.position());
}

/** The way out of `shelter` comeOut takes, on the side away from `away`. */
function exitFound(scope: RunScope, shelter: ShelterVerb, away?: Vec3Like) {
  const blocks = climbingBlockCount(scope.world.inventory());
  return wayOutOf(shelter, terrainOf(scope), scope.world.position(), { away, blocks });
}

/**
 * The walkers left: the bot comes down its pillar, breaks out of its wall or climbs out of its hole (leave_shelter,
 * verified standing on the ground outside, on the side away from `away`, where the threats were) before the step goes
 * on from the ground; when it cannot, the step ends saying so rather than fail at its first walk.
 */
export async function comeOut(
  scope: RunScope,
  stepId: string,
  shelter: ShelterVerb,
  away?: Vec3Like,
): Promise<InterruptVerdict> {
  const exit = exitFound(scope, shelter, away);
  const where = SHELTERED[shelter];
  if ('none' in exit) return { endStep: `sheltered ${where}, no way out: ${exit.none}` };
  const run = await tryHelperStep(scope, 'leave_shelter', { shelter: exit.by, to: exit.to }, stepId, 'safety');
  if ('record' in run && run.record?.outcome.ok) return {};
  const why =
    'refused' in run
      ? run.refused
      : run.record && !run.record.outcome.ok
        ? `${run.record.outcome.code}: ${run.record.outcome.detail}`
        : 'it did not run';
  return { endStep: `sheltered ${where}, the bot could not come out (leave_shelter ${why})` };
}

/**
 * Every response left failed at once: a sheltered bot holds its shelter and the step ends saying so (never a flight
 * out of it again at the same instant); in the open the step ends naming the failures.
 */
function endAfterInstantFailures(scope: RunScope, failed: FailedAtOnce): InterruptVerdict {
  const sheltered = shelterHere(scope);
  const where = sheltered ? `sheltered ${SHELTERED[sheltered]}, the bot holds its shelter: ` : '';
  return { endStep: `${where}every defence left failed at once (${failed.describe()})` };
}

/** Runs the first response whose guard holds: the verb it ran (ok or not), or null when none could run here. */
async function respond(scope: RunScope, threat: SafetySignal, defence: Defence): Promise<string | null> {
  const { stepId: interruptedStepId, failedAtOnce } = defence;
  // With policy.safety.compareOnForks, the options are tried on forks first and the best answered first.
  const { responses, forks } = await rankOnForks(scope, threat);
  // A better answer whose guard refused it is named with the one taken (a fight passed over for a flight, and why).
  const refused: string[] = [];
  for (const response of responses) {
    const refusal = await guardRefusal(scope, response);
    if (refusal !== null) {
      refused.push(`${response.verb} (${refusal})`);
      continue;
    }
    const reason = response.reason ?? threat.detail;
    const passedOver = refused.length > 0 ? `; its guard passed over ${refused.join(', ')}` : '';
    emergency(
      scope,
      threat.signal,
      `${reason}${passedOver}${forks ? `; compared on forks: ${forks}` : ''}`,
      response.verb,
    );
    for (const before of response.before ?? [])
      await runHelperStep(scope, before.verb, before.args, interruptedStepId, 'safety');
    const startedAt = scope.clock.now();
    const record = await runHelperStep(scope, response.verb, response.args, interruptedStepId, 'safety');
    if (record) defence.ran.push(response.verb);
    failedAtOnce.record(response.verb, startedAt, record);
    noteUnreachable(scope, response, record);
    // A hunt's kill is no defence's: only a fight's counts towards what the step's defences killed.
    if (record?.outcome.ok && response.verb === 'attack_entity' && threat.signal !== 'hunger') {
      const target = (response.args as { target: { id: number } }).target.id;
      const name = threat.assessment?.threats.find((t) => t.id === target)?.name ?? 'mob';
      scope.safety.tally.killed(interruptedStepId, name);
    }
    reportStillBurning(scope, threat, response, record);
    if (!record?.outcome.ok) return 'failed';
    return (await runThen(scope, threat, response, defence)) ? response.verb : 'failed';
  }
  const why = refused.length > 0 ? `; every guard refused: ${refused.join(', ')}` : '';
  emergency(scope, threat.signal, `${threat.detail}${why}`, 'none available');
  return null;
}

/**
 * A response's follow-ups (FastPathStep.then), in order while each ends ok or is optional, each told as a response of
 * its own (a hunt's meal is a meal): whether the chain held.
 */
async function runThen(
  scope: RunScope,
  threat: SafetySignal,
  response: FastPathStep,
  defence: Defence,
): Promise<boolean> {
  for (const next of response.then ?? []) {
    emergency(scope, threat.signal, `${response.reason ?? threat.detail}; then ${next.verb}`, next.verb);
    const record = await runHelperStep(scope, next.verb, next.args, defence.stepId, 'safety');
    if (record) defence.ran.push(next.verb);
    if (!record?.outcome.ok && !next.optional) return false;
  }
  return true;
}

/** A close-in that could not reach its mob: the rest of the encounter is judged with no melee against it. */
function noteUnreachable(scope: RunScope, response: FastPathStep, record: StepRecord | null): void {
  const args = response.args as { target?: { id?: number }; giveUpUnreachable?: boolean };
  const failed = record && !record.outcome.ok ? record.outcome.code : null;
  if (args.giveUpUnreachable && failed === 'precondition_missing' && args.target?.id !== undefined)
    scope.safety.unreachable(args.target.id);
}

/** Why the response's guard (or its arguments' schema) refuses it here, or null when it may run. */
async function guardRefusal(scope: RunScope, response: FastPathStep): Promise<string | null> {
  const resolved = resolveStep(scope.registry, { stepId: 'probe', type: response.verb, args: response.args });
  if (!resolved.ok) return resolved.detail;
  const observation = await scope.world.observe(dispatchQuery(resolved.spec, resolved.args));
  const guard = resolved.spec.guard({ world: scope.world, observation }, resolved.args);
  return guard.ok ? null : guard.reason;
}

/** The way out of a hazard failed and the bot still burns: say where, not only how the walk failed. */
function reportStillBurning(
  scope: RunScope,
  threat: SafetySignal,
  response: FastPathStep,
  record: StepRecord | null,
): void {
  const hazard = threat.signal === 'hazard' ? scope.safety.hazardHere() : null;
  if (!record || record.outcome.ok || !hazard) return;
  const { code, detail } = record.outcome;
  emergency(scope, 'hazard', `still ${hazard}: ${response.verb} failed with ${code} (${detail})`, 'failed');
}

/** A `safety.emergency` event: the signal answered, why, and the response run ('none available', 'failed'). */
export function emergency(scope: RunScope, signal: SafetySignal['signal'], detail: string, response: string): void {
  scope.emit({ type: 'safety.emergency', at: scope.clock.now(), planId: scope.planId, signal, detail, response });
}
