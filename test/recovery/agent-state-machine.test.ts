import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/manual-clock.js';
import {
  AGENT_STATES,
  AGENT_TRANSITIONS,
  AgentStateMachine,
  InvalidTransitionError,
} from '../../src/recovery/agent-state-machine.js';

describe('AgentStateMachine', () => {
  it('runs a task through recovery back to execution and completion, timestamped by the clock', async () => {
    const clock = new ManualClock(1_000);
    const seen: string[] = [];
    const machine = new AgentStateMachine({ clock, onTransition: (t) => seen.push(`${t.from}->${t.to}@${t.at}`) });
    machine.transition('PLANNING', 'intent received');
    machine.transition('EXECUTING', 'plan accepted');
    await clock.advance(500);
    machine.transition('RECOVERING', 'stuck.position');
    machine.transition('EXECUTING', 'recovered by jump');
    machine.transition('COMPLETED', 'all steps verified');
    expect(seen).toEqual([
      'IDLE->PLANNING@1000',
      'PLANNING->EXECUTING@1000',
      'EXECUTING->RECOVERING@1500',
      'RECOVERING->EXECUTING@1500',
      'EXECUTING->COMPLETED@1500',
    ]);
    expect(machine.state).toBe('COMPLETED');
    expect(machine.history.at(-1)?.reason).toBe('all steps verified');
  });

  it('goes from RECOVERING to FAILED when the ladder is exhausted, and FAILED only back to IDLE', () => {
    const machine = new AgentStateMachine({ clock: new ManualClock(), initial: 'RECOVERING' });
    machine.transition('FAILED', 'recovery exhausted');
    expect(() => machine.transition('EXECUTING', 'again')).toThrow(InvalidTransitionError);
    machine.transition('IDLE', 'reset');
  });

  it('rejects an invalid transition with an error naming from, to and the allowed states', () => {
    const machine = new AgentStateMachine({ clock: new ManualClock(), initial: 'COMPLETED' });
    const error = (() => {
      try {
        machine.transition('RECOVERING', 'late detection');
      } catch (caught) {
        return caught as InvalidTransitionError;
      }
    })();
    expect(error).toBeInstanceOf(InvalidTransitionError);
    expect(error).toMatchObject({ from: 'COMPLETED', to: 'RECOVERING' });
    expect(error?.message).toBe(
      'Invalid agent state transition COMPLETED -> RECOVERING; from COMPLETED the agent may go to: IDLE',
    );
    expect(machine.state).toBe('COMPLETED');
  });

  it('never allows a self-transition and only allows RECOVERING from EXECUTING or PAUSED', () => {
    for (const state of AGENT_STATES) {
      expect(AGENT_TRANSITIONS[state]).not.toContain(state);
      if (AGENT_TRANSITIONS[state].includes('RECOVERING')) expect(['EXECUTING', 'PAUSED']).toContain(state);
    }
  });

  it('resumes from PAUSED into the state it was paused from', () => {
    const machine = new AgentStateMachine({ clock: new ManualClock(), initial: 'RECOVERING' });
    expect(() => machine.resume('nothing to resume')).toThrow(/not PAUSED/);
    machine.transition('PAUSED', 'too many incidents');
    expect(machine.resume('operator resumed')).toMatchObject({ from: 'PAUSED', to: 'RECOVERING' });
  });
});
