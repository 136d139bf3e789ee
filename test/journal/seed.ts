import { hostname } from 'node:os';
import type { Journal } from '../../src/journal/journal.js';

export interface MidStep {
  runner: string;
  pid: number;
  host?: string;
  planId?: string;
  step?: string;
  verb?: string;
  /** The step's idempotency key, claimed by the runner as the executor claims it. */
  key?: string;
  /** How long after now the step's deadline falls (negative: already past). */
  deadlineInMs?: number;
  /** The plan was journaled before (by an earlier runner): this run resumes it. */
  resumed?: boolean;
}

/**
 * A runner that took a step and then stopped answering, journaled through the domain operations a runner uses:
 * registered, its plan's run begun, the step started, its attempt opened and an actuator command recorded, all at
 * the journal's clock now.
 */
export async function crashedMidStep(journal: Journal, options: MidStep): Promise<void> {
  const planId = options.planId ?? 'p';
  const stepId = options.step ?? 's1';
  const runnerId = options.runner;
  const verb = options.verb ?? 'navigate';
  const base = { at: 0, planId, stepId, verb };
  await journal.registerRunner({ id: runnerId, pid: options.pid, host: options.host ?? hostname(), kind: 'run' });
  const steps = [{ stepId, type: verb, args: {}, ...(options.key ? { idempotencyKey: options.key } : {}) }];
  await journal.beginRun({
    planId,
    intentId: 'i',
    steps,
    body: { planId, intentId: 'i', steps },
    runnerId,
    resumed: options.resumed === true,
  });
  await journal.recordEvent({
    event: {
      ...base,
      type: 'step.started',
      version: '1.0.0',
      attempt: 1,
      deadlineAt: options.deadlineInMs ?? 60_000,
      args: {},
      ...(options.key ? { idempotencyKey: options.key } : {}),
    },
    runnerId,
  });
  if (options.key) await journal.claimKey({ key: options.key, planId, stepId, verb, args: {}, runnerId });
  await journal.recordEvent({ event: { ...base, type: 'attempt.started', attempt: 1 }, runnerId });
  await journal.recordAction({ planId, stepId, command: verb === 'navigate' ? 'goto' : verb, args: {} });
}
