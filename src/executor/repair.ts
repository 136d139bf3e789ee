import type { FailureCode } from '../contracts/failure-codes.js';
import type { Vec3Like } from '../contracts/world.js';
import type { ChosenBranch, RecoveryLadder } from '../recovery/recovery-ladder.js';
import type { RecoveryContext, RecoveryDecision } from '../recovery/strategy.js';
import { createDetection, type StuckType } from '../stuck/detection.js';
import { type HelperParent, runHelperStep } from './fast-path.js';
import { digOutCells, type FailureSituation, reachPlan, unfitRungs } from './repair-fit.js';
import type { RunScope } from './scope.js';

/** Failures the recovery ladder can work on, by the stuck type they amount to. */
const STUCK_TYPE_OF: Partial<Record<FailureCode, StuckType>> = {
  'stuck.position': 'position',
  'stuck.path': 'path',
  no_path: 'path',
  'stuck.flap': 'flap',
  'stuck.loop': 'no_actuator',
  ttfa_exceeded: 'no_actuator',
  state_timeout: 'state',
  'stuck.progress': 'progress',
  hanging_invocation: 'hanging',
};

export function isRepairable(code: FailureCode): boolean {
  return STUCK_TYPE_OF[code] !== undefined;
}

const UNSTUCK_MS = 400;
const PILLAR_HEIGHT = 2;

/** What the ladder needs to know about the bot's situation, and which rungs the world rules out. */
export function recoveryContext(
  scope: RunScope,
  verb: string,
  situation?: Omit<FailureSituation, 'verbs'>,
): RecoveryContext {
  const inventory = scope.world.inventory();
  const verbs = {
    dig: scope.registry.has('dig_block'),
    pillar: scope.registry.has('pillar_up'),
    navigate: scope.registry.has('navigate'),
  };
  return {
    situation: verb,
    hasPlaceableBlock: verbs.pillar && Object.values(inventory).some((count) => count > 0),
    canDig: verbs.dig,
    canEscalate: true,
    serverPermitsTeleport: false,
    ...(situation ? { unfit: unfitRungs(scope.world, scope.policy, { ...situation, verbs }) } : {}),
  };
}

/** Opens an incident on the ladder for a failure that local retries did not fix. */
export function openIncident(
  ladder: RecoveryLadder,
  code: FailureCode,
  detail: string,
  at: number,
  position: Vec3Like,
  context: RecoveryContext,
  branch?: ChosenBranch,
): RecoveryDecision {
  const type = STUCK_TYPE_OF[code]!;
  return ladder.onDetection(
    createDetection(type, detail, at, at, { code }, { x: position.x, y: position.y, z: position.z }),
    context,
    branch,
  );
}

/**
 * Performs an unstuck move: jump and back up directly through the world;
 * dig out and pillar up as the dig_block and pillar_up capabilities, so their
 * trees, guards and acceptance apply. Dig out never breaks a protected cell
 * (the step's target, what holds it up, the policy's boxes). Resolves true
 * only when the move changed something the next attempt meets: the bot in
 * another column, a block dug or placed.
 */
export async function performUnstuck(
  scope: RunScope,
  move: 'jump' | 'back_up' | 'dig_out' | 'pillar_up',
  stepId: string,
  parent: HelperParent,
  toward?: Vec3Like,
): Promise<boolean> {
  const { world, signal } = scope;
  if (move === 'jump' || move === 'back_up') {
    // Only a move that took the bot to another column changed anything the next attempt would meet.
    const before = world.position();
    const column = `${Math.floor(before.x)},${Math.floor(before.z)}`;
    try {
      await world.move(move === 'jump' ? 'jump' : 'back', UNSTUCK_MS, { signal });
    } catch {
      return false;
    }
    const after = world.position();
    return `${Math.floor(after.x)},${Math.floor(after.z)}` !== column;
  }
  if (move === 'pillar_up')
    return (
      (await runHelperStep(scope, 'pillar_up', { height: PILLAR_HEIGHT }, stepId, 'unstuck', parent))?.outcome.ok ===
      true
    );
  let dug = false;
  for (const cell of digOutCells(world, toward, scope.policy)) {
    if (scope.deaths.inPlanStep()) break;
    const record = await runHelperStep(scope, 'dig_block', { position: cell }, stepId, 'unstuck', parent);
    dug ||= record?.outcome.ok === true;
  }
  return dug;
}

/**
 * Builds the way up to a goal above the ground: walk into its column, then
 * pillar up to its height, each as a full step. Resolves with what it did.
 */
export async function performReach(
  scope: RunScope,
  stepId: string,
  parent: HelperParent,
  target: Vec3Like | undefined,
): Promise<{ ok: boolean; label: string }> {
  const plan = reachPlan(scope.world, target);
  if ('none' in plan) return { ok: false, label: `reach: ${plan.none}` };
  const { stand, height } = plan;
  const walked = await runHelperStep(
    scope,
    'navigate',
    { target: { kind: 'block', ...stand } },
    stepId,
    'reach',
    parent,
  );
  if (walked?.outcome.ok !== true)
    return { ok: false, label: `reach: could not stand at (${stand.x}, ${stand.y}, ${stand.z}) below the goal` };
  const rose = await runHelperStep(scope, 'pillar_up', { height }, stepId, 'reach', parent);
  return rose?.outcome.ok === true
    ? {
        ok: true,
        label: `reach: pillared up ${height} block${height === 1 ? '' : 's'} from (${stand.x}, ${stand.y}, ${stand.z}) to the goal's height`,
      }
    : { ok: false, label: `reach: could not pillar up ${height} from (${stand.x}, ${stand.y}, ${stand.z})` };
}
