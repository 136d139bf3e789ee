import type { SafetyOverride } from '../contracts/plan-step.js';
import { isNight, type Vec3Like } from '../contracts/world.js';
import { HOSTILE_STATS } from '../world/mob-rules/index.js';
import type { InterruptVerdict } from './interrupts.js';
import { PLAYER_WALK_SPEED } from '../world/actuator-rules.js';
import { distanceTo } from './repair-fit.js';
import { countByKind, SHELTER_WAIT_MS, shelterWaitMs } from './safety/index.js';
import { type RunScope, sleep } from './scope.js';
import type { Breach } from './shelter-breach.js';
import { beatableOutside, keepers } from './shelter-night.js';

/**
 * How a wait in a shelter ends: the step goes on or ends (an InterruptVerdict), or a breach to answer; `awayFrom`, the
 * walkers the bot comes out away from by day.
 */
export type ShelterWait = InterruptVerdict & { breach?: Breach; awayFrom?: Vec3Like };

/**
 * `hurt`: the wait also lasts while it holds (a shelter built for low health). `watch`: a breach it reports ends the
 * wait at once, for the fast path to answer. `untilDay`: at night, wait for the day even when the bot would beat the
 * nearest of them in the open (a step before ended in this shelter rather than come out into them: the next step's
 * short wait would meet the same crowd, and a replan after each spends the plan's escalations within a minute).
 * `exit`: the ground cell the bot would step out to on the side away from a point (the way the fast path takes out),
 * or null when there is none.
 */
export interface ShelterWaitOptions {
  hurt?: () => boolean | Promise<boolean>;
  watch?: () => Breach | null;
  untilDay?: boolean;
  exit?: (away: Vec3Like) => Vec3Like | null;
}

/** The bot looks about its shelter this often. */
const SHELTER_LOOK_MS = 1_000;
/** A long wait in a shelter says where it stands this often, for whoever watches the run. */
const WAIT_REPORT_MS = 30_000;

/**
 * In its shelter (up a pillar, behind a wall, dug in), the bot waits for the walkers about and any archer in bow
 * range to leave: SHELTER_WAIT_MS, or, at night when it would not beat even the nearest of them in the open, until
 * the day has come and the sun has burnt them (shelterWaitMs); at night it comes out early to what it would beat in
 * the open. It says every WAIT_REPORT_MS what keeps it in; if they are still there at the end, the step ends
 * (explicitly, naming them) rather than come out into them, unless it is day and they are walkers it outwalks
 * (`outwalked`). A night whose time stands still (no daylight cycle: a scenario's endless midnight) never ends, and is
 * waited in as a day.
 */
export async function waitOutShelter(
  scope: RunScope,
  stepId: string,
  where: string,
  options: { combat?: SafetyOverride },
  { hurt = () => false, watch = () => null, untilDay = false, exit = () => null }: ShelterWaitOptions = {},
): Promise<ShelterWait> {
  const started = scope.clock.now();
  const first = await timeOfDay(scope);
  const wait = shelterWaitMs(first, !untilDay && beatableOutside(scope, options, true));
  // At night a bot that would beat what is about in the open comes out to it rather than wait for day.
  const beatable = () => wait.night && beatableOutside(scope, options);
  const keptIn = async () => (await hurt()) || (keepers(scope, wait.forDay).length > 0 && !beatable());
  let until = started + wait.ms;
  let reportAt = started + WAIT_REPORT_MS;
  let dayComing = !wait.forDay;
  while ((await keptIn()) && scope.clock.now() < until && !scope.signal.aborted) {
    await sleep(scope, SHELTER_LOOK_MS);
    // A death in the shelter ends the wait at once: the bot is elsewhere now (its step ends `died`, deaths.ts).
    if (scope.deaths.inPlanStep()) return { endStep: 'the bot died in its shelter' };
    const breach = watch();
    if (breach) return { breach };
    if (!dayComing && scope.clock.now() - started >= SHELTER_WAIT_MS) {
      dayComing = true;
      if ((await timeOfDay(scope)) === first) until = started + SHELTER_WAIT_MS;
    }
    if (scope.clock.now() < reportAt) continue;
    reportAt += WAIT_REPORT_MS;
    reportWait(scope, where, started, until, wait.forDay);
  }
  const last = await timeOfDay(scope);
  const dayNow = last !== undefined && !isNight(last);
  // By day the night's rule (every hostile about finds the bot once it is out) no longer holds: only those at hand.
  const below = keepers(scope, wait.forDay && !dayNow);
  if (below.length === 0 || beatable()) return {};
  const outwalk = dayNow ? outwalked(scope, below, exit) : null;
  if (outwalk) return { awayFrom: outwalk };
  const tally = scope.safety.tally.describe(stepId, scope.world.health());
  const waited = until - started;
  const through = waited > SHELTER_WAIT_MS ? ', through the night and the sunrise' : '';
  return {
    endStep: `sheltered ${where} from ${countByKind(below)} still about after ${Math.round(waited / 1000)} s${through}${tally ? ` (${tally})` : ''}: the step ends rather than come out into them`,
  };
}

const timeOfDay = async (scope: RunScope) => (await scope.world.observe({ time: true })).timeOfDay;

/** "dug in from a skeleton: waited 30 s of at most 313 s" (a `safety.emergency` whose response is the wait). */
function reportWait(scope: RunScope, where: string, started: number, until: number, night: boolean): void {
  const keptBy = keepers(scope, night);
  if (keptBy.length === 0) return;
  const now = scope.clock.now();
  const seconds = (ms: number) => Math.round(ms / 1000);
  scope.emit({
    type: 'safety.emergency',
    at: now,
    planId: scope.planId,
    signal: 'hostile',
    detail: `${where} from ${countByKind(keptBy)}: waited ${seconds(now - started)} s of at most ${seconds(until - started)} s`,
    response: 'wait',
  });
}

/**
 * By day, what stays about the shelter is no reason to sit on when the bot, out on the far side, walks off faster than
 * any of it walks: with its health at the policy's floor or above and every one of them either
 * - a walker (a zombie in the shade the sun does not burn in): a player comes out and walks off at twice its pace (a
 *   zombie walks 2.3 blocks/s, a player 4.3), into the sun it burns in. In a night's tech-tree run on the server
 *   (world 8) a bare-handed bot sat dug in from one zombie for 563 s through the sunrise, then 20 s more before each
 *   replan, until the plan's escalations ran out;
 * - or an archer whose bow does not reach the cell the bot steps out to: it never comes within range of a bot walking
 *   off at nearly twice its pace. In server world 9 (2026-12-07) a skeleton standing in the shade 14.7 blocks off held
 *   a bot in its hole through the night and the sunrise, 507 s, and each replan's step 20 s more, until the plan's
 *   escalations ran out; the cell out of the hole on the far side was beyond its range.
 * No creeper. Their centre (to come out away from), or null when the bot stays in.
 */
function outwalked(
  scope: RunScope,
  below: readonly { id: number; name: string }[],
  exit: (away: Vec3Like) => Vec3Like | null,
): Vec3Like | null {
  if (scope.world.health() < scope.policy.safety.minHealth) return null;
  const ids = new Set(below.map((e) => e.id));
  const at = scope.world.entities().filter((e) => ids.has(e.id));
  if (at.length === 0) return null;
  const mean = (axis: 'x' | 'y' | 'z') => at.reduce((sum, e) => sum + e.position[axis], 0) / at.length;
  const away = { x: mean('x'), y: mean('y'), z: mean('z') };
  const out = at.some((e) => HOSTILE_STATS[e.name]?.bow) ? exit(away) : null;
  const where = new Map(at.map((e) => [e.id, e.position]));
  const walksOff = ({ id, name }: { id: number; name: string }) => {
    const stats = HOSTILE_STATS[name];
    if (stats === undefined || name === 'creeper' || stats.speed >= PLAYER_WALK_SPEED) return false;
    if (!stats.bow) return true;
    const position = where.get(id);
    return position !== undefined && out !== null && distanceTo(position, out)! > stats.bow.range;
  };
  return below.every(walksOff) ? away : null;
}
