// The entry of a foresight worker thread: runs one job on a fork of the view it is given, posts the outcome, ends.
import { parentPort, workerData } from 'node:worker_threads';
import { runForkJob, type ForkJob } from './fork-job.js';
import type { CapturedView } from './view.js';

const { view, job } = workerData as { view: CapturedView; job: ForkJob };
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
