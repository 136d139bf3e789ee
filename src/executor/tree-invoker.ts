import type { TreeRunner } from '../runtime/tree-runner.js';
import type { AttemptOutcome, AttemptRequest, StepInvoker } from './invoker.js';
import { instrumentWorld } from './instrumented-world.js';
import { watchTreeRecoveries } from './tree-recoveries.js';

/** Runs each attempt as the capability's behavior tree, with the step's watchdog limits as the tree's defaults. */
export function treeInvoker(runner: TreeRunner): StepInvoker {
  return {
    async invoke(request: AttemptRequest): Promise<AttemptOutcome> {
      const { spec } = request;
      if (!spec.tree)
        return {
          ok: false,
          code: 'not_runnable',
          detail: `${spec.name}@${spec.version} declares no tree; it is not runnable in this build`,
        };
      const recoveries = watchTreeRecoveries((recovery) => request.onTreeRecovery?.(recovery));
      const world = instrumentWorld(request.world, {
        started: (command) => {
          request.onActuatorStart(command);
          recoveries.started(command);
        },
        settled: (command, error) => {
          request.onActuatorSettled(command);
          recoveries.settled(command, error);
        },
      });
      return runner.run(
        spec.tree,
        { args: request.args, world },
        {
          signal: request.signal,
          expectedDurationMs: request.limits.expectedDurationMs,
          retryableCodes: spec.retryableCodes,
          watchdogDefaults: request.limits,
          hooks: {
            progress: ({ done, total, unit, detail, judged }) =>
              request.onProgress(done, total, {
                ...(unit !== undefined ? { unit } : {}),
                ...(detail !== undefined ? { detail } : {}),
                ...(judged !== undefined ? { judged } : {}),
              }),
          },
        },
      );
    },
  };
}
