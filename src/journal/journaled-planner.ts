import type { Planner } from '../executor/planner.js';
import type { Journal } from './journal.js';

/**
 * Journals every set of replacement steps a planner sends on escalation, as a
 * plan revision, before the executor sees it. The executor may still refuse
 * it (invalid, or a loop); the recorder marks a revision adopted when its
 * first step starts. So a resume knows the plan's line after an escalation,
 * including replacement steps that had not started when the process died.
 */
export function journalPlanner(planner: Planner, journal: Journal): Planner {
  return {
    name: planner.name,
    ...(planner.plan ? { plan: planner.plan.bind(planner) } : {}),
    async onFailure(context) {
      const reply = await planner.onFailure(context);
      if ('steps' in reply) {
        journal
          .sql(
            'INSERT INTO plan_revisions (plan_id, rung, planner, failed_step_id, steps, created_at) VALUES (?, ?, ?, ?, ?, ?)',
          )
          .run(
            context.plan.planId,
            context.rung,
            planner.name,
            context.failedStep.stepId,
            JSON.stringify(reply.steps),
            journal.now(),
          );
      }
      return reply;
    },
  };
}

export function journalPlanners(planner: Planner | readonly Planner[], journal: Journal): Planner[] {
  return [planner].flat().map((p) => journalPlanner(p, journal));
}
