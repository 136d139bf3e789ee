// The entry of a foresight worker thread: says it is ready, then runs each job it is sent on a fork of its view and
// posts the outcome, until the pool ends it.
import { parentPort } from 'node:worker_threads';
import { runForkJob, type ForkJob } from './fork-job.js';
import { FORK_THREAD_READY } from './fork-thread.js';
import type { CapturedView } from './view.js';

parentPort?.on('message', ({ view, job }: { view: CapturedView; job: ForkJob }) => {
  runForkJob(view, job).then(
    (outcome) => parentPort?.postMessage(outcome),
    (error: unknown) =>
      parentPort?.postMessage({
        outcome: 'crashed',
        detail: error instanceof Error ? error.message : String(error),
        expectations: [],
        unmet: [],
        damage: 0,
        simulatedMs: 0,
        unknownTouches: 0,
      }),
  );
});
parentPort?.postMessage(FORK_THREAD_READY);
