import type { Planner } from '../executor/planner.js';
import type { JournalRecorder } from './recorder.js';

/**
 * Journals every set of replacement steps a planner sends on escalation, as a
 * plan revision, before the executor sees it. The executor may still refuse
 * it (invalid, or a loop); the recorder marks a revision adopted when its
 * first step starts. So a resume knows the plan's line after an escalation,
 * including replacement steps that had not started when the process died.
 */
export function journalPlanner(planner: Planner, recorder: JournalRecorder): Planner {
  return {
    name: planner.name,
    ...(planner.plan ? { plan: planner.plan.bind(planner) } : {}),
    async onFailure(context) {
      const reply = await planner.onFailure(context);
      if ('steps' in reply) {
        // Queued with the events, ahead of the steps it may bring: their step.started adopts it.
        await recorder.recordRevision({
          planId: context.plan.planId,
          rung: context.rung,
          planner: planner.name,
          failedStepId: context.failedStep.stepId,
          steps: reply.steps,
        });
      }
      return reply;
    },
  };
}

export function journalPlanners(planner: Planner | readonly Planner[], recorder: JournalRecorder): Planner[] {
  return [planner].flat().map((p) => journalPlanner(p, recorder));
}
