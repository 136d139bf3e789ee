import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/manual-clock.js';
import { AgentStateMachine } from '../../src/recovery/agent-state-machine.js';
import type { RecoveryConfigInput } from '../../src/recovery/config.js';
import { RecoveryLearning } from '../../src/recovery/learning.js';
import { RecoveryLadder } from '../../src/recovery/recovery-ladder.js';
import type { RecoveryContext, RecoveryDecision } from '../../src/recovery/strategy.js';
import { createDetection, type StuckType } from '../../src/stuck/detection.js';

const at = { x: 5.5, y: 64, z: 5.5 };
const stuck = (type: StuckType = 'position', now = 0) =>
  createDetection(type, `test ${type}`, now - 5_000, now, {}, at);

function ladder(config: RecoveryConfigInput = {}, learning?: RecoveryLearning) {
  const clock = new ManualClock();
  return { clock, ladder: new RecoveryLadder({ clock, config, ...(learning ? { learning } : {}) }) };
}

/** Performs nothing and reports every rung unresolved until the ladder gives a final decision. */
function exhaust(subject: RecoveryLadder, first: RecoveryDecision, context: RecoveryContext = {}): RecoveryDecision[] {
  const decisions = [first];
  let decision: RecoveryDecision | null = first;
  while (decision && decision.strategy !== 'abort' && decision.strategy !== 'pause' && decisions.length < 1_000) {
    decision = subject.report(decision, { resolved: false }, context);
    if (decision) decisions.push(decision);
  }
  return decisions;
}

const describeAction = (d: RecoveryDecision): string =>
  d.action.kind === 'unstuck'
    ? `unstuck:${d.action.move}`
    : d.action.kind === 'repath'
      ? `repath#${d.action.alternative}`
      : d.action.kind;

describe('RecoveryLadder', () => {
  it('climbs the position ladder in priority order within the step budget, then escalates, then aborts', () => {
    const { ladder: subject } = ladder();
    subject.beginTask();
    const decisions = exhaust(subject, subject.onDetection(stuck()), { canDig: true, hasPlaceableBlock: true });
    expect(decisions.map(describeAction)).toEqual([
      'retry',
      'retry',
      'unstuck:jump',
      'unstuck:back_up',
      'unstuck:dig_out',
      'unstuck:pillar_up',
      'repath#1',
      'repath#2',
      'escalate',
      'escalate',
      'abort',
    ]);
    const last = decisions.at(-1)!;
    expect(last).toMatchObject({ nextState: 'FAILED', action: { kind: 'abort', code: 'stuck.position' } });
    expect(last.reason).toContain('escalation is not available');
    expect(decisions[8]).toMatchObject({
      nextState: 'PLANNING',
      action: { kind: 'escalate', summary: 'stuck (position) at 5,64,5: test position' },
    });
    expect(decisions[0]!.action).toMatchObject({ kind: 'retry' });
    const delays = decisions.slice(0, 2).map((d) => (d.action.kind === 'retry' ? d.action.delayMs : -1));
    expect(delays[0]).toBeGreaterThanOrEqual(800);
    expect(delays[0]).toBeLessThanOrEqual(1_200);
    expect(delays[1]).toBeGreaterThanOrEqual(1_600);
    expect(delays[1]).toBeLessThanOrEqual(2_400);
  });

  it('boxed in on all six sides (nothing diggable, no blocks, no teleport) ends FAILED within budget, never loops', () => {
    const { clock, ladder: subject } = ladder();
    const machine = new AgentStateMachine({ clock, initial: 'EXECUTING' });
    subject.beginTask();
    const context = {
      canDig: false,
      hasPlaceableBlock: false,
      serverPermitsTeleport: true,
      safeTeleportDestination: { x: 0, y: 70, z: 0 },
    };
    machine.transition('RECOVERING', 'stuck.position');
    const decisions = exhaust(subject, subject.onDetection(stuck()), context);
    for (const decision of decisions)
      if (decision.nextState !== machine.state)
        machine.transition(decision.nextState === 'PLANNING' ? 'PLANNING' : decision.nextState, decision.reason);
    expect(machine.state).toBe('FAILED');
    expect(decisions.map((d) => d.strategy)).not.toContain('teleport');
    expect(decisions.length).toBeLessThanOrEqual(
      subject.config.budgets.attemptsPerStep + subject.config.strategies.escalate.maxPerTask + 1,
    );
    expect(subject.failed?.action).toMatchObject({ kind: 'abort', code: 'stuck.position' });
    expect(subject.onDetection(stuck())).toBe(subject.failed);
  });

  it('returns null when an action resolves the incident, and aborts on the 5th consecutive detection', () => {
    const { ladder: subject } = ladder();
    subject.beginTask();
    const kinds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const decision = subject.onDetection(stuck());
      kinds.push(decision.strategy);
      if (decision.strategy !== 'abort') expect(subject.report(decision, { resolved: true })).toBeNull();
    }
    expect(kinds).toEqual(['retry', 'retry', 'unstuck', 'unstuck', 'abort']);
    expect(subject.failed?.reason).toBe('5 consecutive stuck detections without completing a step (limit 5)');
    expect(subject.history).toEqual([
      expect.stringMatching(/^retry#1 after \d+ ms → resolved$/),
      expect.stringMatching(/^retry#2 .* → resolved$/),
      'unstuck:jump → resolved',
      'unstuck:back_up → resolved',
    ]);
  });

  it('a completed step clears the consecutive count; the task budget still bounds the whole task', () => {
    const { ladder: subject } = ladder({ budgets: { totalPerTask: 6 } });
    subject.beginTask();
    const kinds: string[] = [];
    for (let step = 0; step < 4; step++) {
      subject.beginStep();
      for (let i = 0; i < 2; i++) {
        const decision = subject.onDetection(stuck('hanging'));
        kinds.push(decision.strategy);
        if (decision.strategy !== 'abort') subject.report(decision, { resolved: true });
      }
      subject.stepCompleted();
    }
    expect(kinds).toEqual(['retry', 'retry', 'retry', 'retry', 'retry', 'retry', 'abort', 'abort']);
    expect(subject.failed?.reason).toBe("the task's recovery budget of 6 attempts is spent");
    expect(subject.failed?.action).toMatchObject({ code: 'hanging_invocation' });
  });

  it('uses the type map: path failures never retry; flaps repath first, to the goal as asked', () => {
    const { ladder: subject } = ladder();
    subject.beginTask();
    expect(exhaust(subject, subject.onDetection(stuck('path')), { canDig: false }).map(describeAction)).toEqual([
      'unstuck:jump',
      'unstuck:back_up',
      'repath#1',
      'repath#2',
      'repath#3',
      'subgoal',
      'escalate',
      'escalate',
      'abort',
    ]);
    subject.beginTask();
    expect(exhaust(subject, subject.onDetection(stuck('flap'))).map(describeAction)).toEqual([
      'repath#1',
      'repath#2',
      'repath#3',
      'subgoal',
      'escalate',
      'escalate',
      'abort',
    ]);
  });

  it('skips rungs the world rules out, and says why in its history', () => {
    const { ladder: subject } = ladder();
    subject.beginTask();
    const unfit = {
      repath: 'the path search already found the goal unreachable',
      jump: 'the bot can move',
      back_up: 'the bot can move',
      subgoal: 'nothing to reach',
    };
    expect(
      exhaust(subject, subject.onDetection(stuck('path'), { canDig: false, unfit }), { canDig: false, unfit }).map(
        describeAction,
      ),
    ).toEqual(['escalate', 'escalate', 'abort']);
    expect(subject.history).toEqual(
      expect.arrayContaining([
        'unstuck:jump skipped: the bot can move',
        'repath skipped: the path search already found the goal unreachable',
        'subgoal skipped: nothing to reach',
      ]),
    );
  });

  it('teleports only when enabled, permitted by the server, to a verified destination within range', () => {
    const context = { canDig: false, serverPermitsTeleport: true, safeTeleportDestination: { x: 20, y: 64, z: 5 } };
    const teleports = (config: RecoveryConfigInput, ctx: RecoveryContext) => {
      const { ladder: subject } = ladder(config);
      subject.beginTask();
      return exhaust(subject, subject.onDetection(stuck('path')), ctx).filter((d) => d.strategy === 'teleport');
    };
    const on = { strategies: { teleport: { enabled: true } } };
    expect(teleports({}, context)).toEqual([]);
    expect(teleports(on, { ...context, serverPermitsTeleport: false })).toEqual([]);
    expect(teleports(on, { ...context, safeTeleportDestination: null })).toEqual([]);
    expect(teleports({ strategies: { teleport: { enabled: true, maxDistanceBlocks: 10 } } }, context)).toEqual([]);
    expect(teleports(on, context).map((d) => d.action)).toEqual([{ kind: 'teleport', to: { x: 20, y: 64, z: 5 } }]);
  });

  it('pauses automatic recovery past the hourly incident limit, says so, and resumes when the hour rolls on', async () => {
    const { clock, ladder: subject } = ladder({ budgets: { maxIncidentsPerHour: 3, maxConsecutiveStuck: 100 } });
    subject.beginTask();
    for (let i = 0; i < 3; i++) {
      const decision = subject.onDetection(stuck());
      subject.report(decision, { resolved: true });
      await clock.advance(60_000);
    }
    const paused = subject.onDetection(stuck());
    // Incidents at 0, 1, 2 and 3 min: a 5th stays within 3/hour once the two oldest are an hour old.
    expect(paused).toMatchObject({
      strategy: 'pause',
      nextState: 'PAUSED',
      action: { kind: 'pause', until: 3_660_000 },
    });
    expect(paused.reason).toBe('4 stuck incidents in the last hour exceed the limit of 3');
    expect(paused.action.kind === 'pause' && paused.action.reason).toContain('automatic recovery paused until 3660000');
    expect(subject.paused).toBe(true);
    expect(subject.onDetection(stuck()).strategy).toBe('pause');
    expect(() => subject.report(paused, { resolved: false })).toThrow(/final pause/);
    await clock.advance(3_660_000 - clock.now());
    expect(subject.paused).toBe(false);
    expect(subject.onDetection(stuck()).strategy).not.toBe('pause');
  });

  it('rejects reports out of order', () => {
    const { ladder: subject } = ladder();
    subject.beginTask();
    const first = subject.onDetection(stuck());
    const second = subject.report(first, { resolved: false })!;
    expect(() => subject.report(first, { resolved: false })).toThrow(
      `decision ${first.id} is not the outstanding one (${second.id})`,
    );
  });

  it('is deterministic: the same inputs give the same decisions, jitter included', () => {
    const run = () => {
      const { ladder: subject } = ladder();
      subject.beginTask();
      return exhaust(subject, subject.onDetection(stuck())).map((d) => ({ action: d.action, reason: d.reason }));
    };
    expect(run()).toEqual(run());
  });

  describe('learning', () => {
    function train(learning: RecoveryLearning): void {
      for (let i = 0; i < 4; i++) {
        learning.record('position', 'navigate', 'retry', false);
        learning.record('position', 'navigate', 'repath', true);
      }
    }

    it('when on, records outcomes and orders strategies by measured success in that situation', () => {
      const learning = new RecoveryLearning();
      const { ladder: subject } = ladder({ learning: { enabled: true } }, learning);
      train(learning);
      subject.beginTask();
      const first = subject.onDetection(stuck(), { situation: 'navigate' });
      expect(first.strategy).toBe('repath');
      subject.report(first, { resolved: true }, { situation: 'navigate' });
      expect(learning.outcomes('position', 'navigate', 'repath')).toEqual({ attempts: 5, resolved: 5 });
      subject.beginStep();
      expect(subject.onDetection(stuck(), { situation: 'dig_block' }).strategy).toBe('retry');
    });

    it('updates the order as outcomes come in, breaks ties by priority and keeps abort last', () => {
      const learning = new RecoveryLearning();
      learning.record('state', 'any', 'escalate', true);
      const { ladder: subject } = ladder({ learning: { enabled: true } }, learning);
      subject.beginTask();
      const decisions = exhaust(subject, subject.onDetection(stuck('state')));
      // escalate leads on its recorded success; once it fails it ties retry and priority decides.
      expect(decisions.map((d) => d.strategy)).toEqual(['escalate', 'retry', 'escalate', 'retry', 'abort']);
    });

    it('when off (the default), neither records nor reorders', () => {
      const learning = new RecoveryLearning();
      train(learning);
      const { ladder: subject } = ladder({}, learning);
      subject.beginTask();
      const first = subject.onDetection(stuck(), { situation: 'navigate' });
      expect(first.strategy).toBe('retry');
      subject.report(first, { resolved: false }, { situation: 'navigate' });
      expect(learning.outcomes('position', 'navigate', 'retry')).toEqual({ attempts: 4, resolved: 0 });
      expect(RecoveryLearning.fromJSON(learning.toJSON()).toJSON()).toEqual(learning.toJSON());
    });
  });
});
