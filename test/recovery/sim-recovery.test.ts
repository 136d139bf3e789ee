import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/manual-clock.js';
import type { NavigationGoal, Vec3Like } from '../../src/contracts/world.js';
import { AgentStateMachine, type AgentState } from '../../src/recovery/agent-state-machine.js';
import { RecoveryLadder } from '../../src/recovery/recovery-ladder.js';
import type { RecoveryAction, RecoveryContext, RecoveryDecision } from '../../src/recovery/strategy.js';
import type { Detection } from '../../src/stuck/detection.js';
import { StuckMonitor } from '../../src/stuck/stuck-monitor.js';
import {
  boxedIn,
  flappingGoal,
  JUMP_AIRTIME_MS,
  JUMP_RISE_MS,
  unreachableTarget,
  walledIn,
  type SimScenario,
} from '../../src/world/sim/index.js';

const TICK_MS = 50;

interface Drive {
  state: AgentState;
  detections: Detection[];
  decisions: RecoveryDecision[];
  /** Virtual time the whole run took. */
  tookMs: number;
}

const cellOf = (p: Vec3Like) => `${Math.floor(p.x)},${Math.floor(p.y)},${Math.floor(p.z)}`;

/**
 * A reference wiring of detectors, ladder and state machine around one goto in
 * SimWorld, the way the executor feeds them: ticks with the world's position,
 * path events, actuator stamps; each decision is performed through the world
 * and its outcome reported back. No planner here, so sub-goals and escalation
 * cannot resolve anything.
 */
async function drive(scenario: SimScenario, clock: ManualClock): Promise<Drive> {
  const { world } = scenario;
  const startedAt = clock.now();
  const detections: Detection[] = [];
  const decisions: RecoveryDecision[] = [];
  let onStuck: ((detection: Detection) => void) | null = null;
  const monitor = new StuckMonitor({ clock, onDetection: (d) => (detections.push(d), onStuck?.(d)) });
  const ladder = new RecoveryLadder({ clock });
  const machine = new AgentStateMachine({ clock });
  const context: RecoveryContext = { canEscalate: false, hasPlaceableBlock: (world.inventory().cobblestone ?? 0) > 0 };
  const sleep = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
  world.events.on('path', (status) => monitor.pathStatus(status));
  let ticker = clock.setTimeout(function tick() {
    monitor.tick(world.position());
    ticker = clock.setTimeout(tick, TICK_MS);
  }, TICK_MS);
  const goal: NavigationGoal = scenario.goal;

  /** One goto, retried locally on failure, until it arrives (null) or a detector trips. */
  const supervisedGoto = () =>
    new Promise<Detection | null>((resolve) => {
      const controller = new AbortController();
      onStuck = (detection) => {
        controller.abort();
        resolve(detection);
      };
      monitor.beginStep({ movement: true, invocation: 'goto' });
      const attempt = () => {
        if (controller.signal.aborted) return;
        monitor.actuatorStarted();
        world.goto(goal, { signal: controller.signal }).then(
          () => (monitor.actuatorSettled(), resolve(null)),
          () => (monitor.actuatorSettled(), attempt()),
        );
      };
      attempt();
    });

  const moved = async (act: () => Promise<unknown>): Promise<boolean> => {
    const before = cellOf(world.position());
    await act().catch(() => undefined);
    await sleep(JUMP_AIRTIME_MS + 100);
    return cellOf(world.position()) !== before;
  };

  const perform = async (action: RecoveryAction): Promise<boolean> => {
    monitor.actuatorStamp();
    switch (action.kind) {
      case 'retry':
        await sleep(action.delayMs);
        return true;
      case 'repath':
        // A fresh search to the goal as asked: a rung never loosens the goal.
        return true;
      case 'unstuck': {
        const feet = { ...world.position() }; // SimWorld's position is live; keep where the move started
        if (action.move === 'jump') return moved(() => world.move('jump', JUMP_AIRTIME_MS));
        if (action.move === 'back_up') return moved(() => world.move('back', 500));
        if (action.move === 'pillar_up') {
          return moved(async () => {
            const jump = world.move('jump', JUMP_AIRTIME_MS);
            await sleep(JUMP_RISE_MS + TICK_MS);
            await world.place(feet, 'cobblestone');
            await jump;
          });
        }
        const ahead = { x: feet.x + Math.sign(scenario.goal.x - feet.x), y: feet.y, z: feet.z };
        try {
          await world.dig(ahead);
          await world.dig({ ...ahead, y: ahead.y + 1 });
          return true;
        } catch {
          return false;
        }
      }
      default:
        return false;
    }
  };

  machine.transition('EXECUTING', `goto ${JSON.stringify(goal)}`);
  monitor.setState('EXECUTING');
  ladder.beginTask();
  ladder.beginStep();
  try {
    for (;;) {
      const detection = await supervisedGoto();
      onStuck = null;
      monitor.endStep();
      if (!detection) {
        machine.transition('COMPLETED', 'arrived');
        break;
      }
      machine.transition('RECOVERING', detection.reason);
      monitor.setState('RECOVERING');
      let decision: RecoveryDecision | null = ladder.onDetection(detection, context);
      while (decision) {
        decisions.push(decision);
        if (decision.nextState === 'FAILED' || decision.nextState === 'PAUSED') break;
        decision = ladder.report(decision, { resolved: await perform(decision.action) }, context);
      }
      if (decision) {
        machine.transition(decision.nextState, decision.reason);
        break;
      }
      machine.transition('EXECUTING', 'recovered');
      monitor.setState('EXECUTING');
    }
  } finally {
    clock.clearTimeout(ticker);
  }
  return { state: machine.state, detections, decisions, tookMs: clock.now() - startedAt };
}

async function run(make: (options: { clock: ManualClock }) => SimScenario): Promise<Drive> {
  const clock = new ManualClock();
  let result: Drive | undefined;
  const done = drive(make({ clock }), clock).then((r) => (result = r));
  await clock.advanceUntil(() => result !== undefined, 10 * 60_000, TICK_MS);
  await done;
  return result!;
}

const strategies = (drive: Drive) =>
  drive.decisions.map((d) => (d.action.kind === 'unstuck' ? d.action.move : d.action.kind));

describe('stuck detection and recovery on SimWorld scenarios', () => {
  it('walled in by obsidian: three noPaths trip stuck.path at once; pillar_up gets out and the goal is reached', async () => {
    const result = await run(walledIn);
    expect(result.detections[0]).toMatchObject({
      type: 'path',
      failureCode: 'stuck.path',
      evidence: { consecutiveFailures: 3 },
    });
    expect(result.detections[0]!.detectedAt - result.detections[0]!.since).toBeLessThanOrEqual(TICK_MS);
    expect(strategies(result)).toEqual(['jump', 'back_up', 'dig_out', 'pillar_up']);
    expect(result.state).toBe('COMPLETED');
  });

  it('boxed in on all six sides: ends FAILED within the budget, never loops', async () => {
    const result = await run(boxedIn);
    expect(result.state).toBe('FAILED');
    const last = result.decisions.at(-1)!;
    expect(last.action).toMatchObject({ kind: 'abort', code: 'stuck.path' });
    expect(last.budget.stepAttempts).toBeLessThanOrEqual(last.budget.stepAttemptLimit);
    expect(result.decisions.length).toBeLessThanOrEqual(last.budget.stepAttemptLimit + 1);
    expect(result.tookMs).toBeLessThan(60_000);
  });

  it('unreachable target (goal sealed in bedrock): only stuck.path trips, every rung fails, and the run ends in an explicit failure', async () => {
    const result = await run(unreachableTarget);
    expect(new Set(result.detections.map((d) => d.type))).toEqual(new Set(['path']));
    expect(result.decisions.filter((d) => d.action.kind === 'repath').map((d) => d.action)).toContainEqual({
      kind: 'repath',
      alternative: 3,
    });
    expect(result.state).toBe('FAILED');
    expect(result.decisions.at(-1)?.action).toMatchObject({ kind: 'abort', code: 'stuck.path' });
  });

  it('flapping goal: heading reversals trip stuck.flap within the 10 s window, repaths loosen the goal, then FAILED', async () => {
    const result = await run(flappingGoal);
    const flap = result.detections.find((d) => d.type === 'flap');
    expect(flap).toBeDefined();
    expect(flap!.detectedAt - flap!.since).toBeLessThanOrEqual(10_000);
    expect(flap!.evidence.netDisplacementBlocks).toBeLessThan(1);
    expect(strategies(result).slice(0, 3)).toEqual(['repath', 'repath', 'repath']);
    expect(result.state).toBe('FAILED');
  });
});
