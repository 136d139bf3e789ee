import type { FailureCode } from '../contracts/failure-codes.js';
import type { Vec3Like } from '../contracts/world.js';
import type { RecoveryLadder } from '../recovery/recovery-ladder.js';
import type { RecoveryContext, RecoveryDecision } from '../recovery/strategy.js';
import { createDetection, type StuckType } from '../stuck/detection.js';
import { runHelperStep } from './fast-path.js';
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

/** What the ladder needs to know about the bot's situation. */
export function recoveryContext(scope: RunScope, verb: string, canEscalate: boolean): RecoveryContext {
  const inventory = scope.world.inventory();
  return {
    situation: verb,
    hasPlaceableBlock: scope.registry.has('pillar_up') && Object.values(inventory).some((count) => count > 0),
    canDig: scope.registry.has('dig_block'),
    canEscalate,
    serverPermitsTeleport: false,
  };
}

/** Opens an incident on the ladder for a failure that local retries did not fix. */
export function openIncident(ladder: RecoveryLadder, code: FailureCode, detail: string, at: number, position: Vec3Like, context: RecoveryContext): RecoveryDecision {
  const type = STUCK_TYPE_OF[code]!;
  return ladder.onDetection(createDetection(type, detail, at, at, { code }, { x: position.x, y: position.y, z: position.z }), context);
}

/**
 * Performs an unstuck move: jump and back up directly through the world;
 * dig out and pillar up as the dig_block and pillar_up capabilities, so their
 * trees, guards and acceptance apply. Resolves false when the move is not possible here.
 */
export async function performUnstuck(
  scope: RunScope,
  move: 'jump' | 'back_up' | 'dig_out' | 'pillar_up',
  stepId: string,
  deadlineCap: number,
  toward?: Vec3Like,
): Promise<boolean> {
  const { world, signal } = scope;
  if (move === 'jump' || move === 'back_up') {
    try {
      await world.move(move === 'jump' ? 'jump' : 'back', UNSTUCK_MS, { signal });
      return true;
    } catch {
      return false;
    }
  }
  if (move === 'pillar_up') return (await runHelperStep(scope, 'pillar_up', { height: PILLAR_HEIGHT }, stepId, 'unstuck', deadlineCap))?.outcome.ok === true;
  let dug = false;
  for (const cell of digOutCells(world.position(), toward)) {
    const block = world.blockAt(cell);
    if (!block || !block.diggable || block.name === 'air') continue;
    const record = await runHelperStep(scope, 'dig_block', { position: block.position }, stepId, 'unstuck', deadlineCap);
    dug ||= record?.outcome.ok === true;
  }
  return dug;
}

const DIG_REACH = 4;

/**
 * The cells to clear: a two-high opening through the first obstruction on the
 * straight line toward the goal (within reach), else the cells around the bot.
 */
function digOutCells(at: Vec3Like, toward: Vec3Like | undefined): Vec3Like[] {
  const feet = { x: Math.floor(at.x), y: Math.floor(at.y), z: Math.floor(at.z) };
  if (toward) {
    const dx = toward.x + 0.5 - at.x;
    const dz = toward.z + 0.5 - at.z;
    const length = Math.hypot(dx, dz);
    if (length > 0) {
      const cells: Vec3Like[] = [];
      for (let step = 1; step <= DIG_REACH; step++) {
        const x = Math.floor(at.x + (dx / length) * step);
        const z = Math.floor(at.z + (dz / length) * step);
        cells.push({ x, y: feet.y, z }, { x, y: feet.y + 1, z });
      }
      return cells;
    }
  }
  return [[1, 0], [-1, 0], [0, 1], [0, -1]].flatMap(([dx, dz]) => [0, 1].map((dy) => ({ x: feet.x + dx!, y: feet.y + dy, z: feet.z + dz! })));
}

/** The point a step is heading for, when its arguments name one (a navigation target or a position). */
export function targetOf(args: unknown): Vec3Like | undefined {
  const candidate = (args as { target?: unknown; position?: unknown } | null)?.target ?? (args as { position?: unknown } | null)?.position;
  const point = candidate as Partial<Vec3Like> | undefined;
  if (point && typeof point.x === 'number' && typeof point.z === 'number') return { x: point.x, y: typeof point.y === 'number' ? point.y : 0, z: point.z };
  return undefined;
}
