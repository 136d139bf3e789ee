import type { JournalWrite } from '../journal.js';
import { recordEvent } from './events.js';
import { beginRun, recordAction, recordIntent, recordNodeStates, recordRevision, settleAction } from './record.js';
import type { Tx } from './tx.js';

/** A run's writes, one after another in one transaction; each one's answer, in order. */
export function* recordBatch(writes: readonly JournalWrite[], epoch: number | null): Tx<unknown[]> {
  const answers: unknown[] = [];
  for (const write of writes) answers.push(yield* recordWrite(write, epoch));
  return answers;
}

function recordWrite(write: JournalWrite, epoch: number | null): Tx<unknown> {
  switch (write.kind) {
    case 'intent':
      return recordIntent(write.intent);
    case 'beginRun':
      return beginRun(write.run, epoch);
    case 'event':
      return recordEvent(write.record);
    case 'action': {
      const { planId, stepId, command, args } = write.action;
      return recordAction(planId, stepId, command, args);
    }
    case 'settleAction':
      return settleAction(write.id, write.error);
    case 'nodeStates':
      return recordNodeStates(write.row);
    case 'revision':
      return recordRevision(write.revision);
  }
}
