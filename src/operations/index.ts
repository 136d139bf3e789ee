export { createOperations, type Operations, type OperationsOptions } from './operations.js';
export {
  OPERATION_ERROR_KINDS,
  OperationError,
  isOperationError,
  type OperationErrorDetails,
  type OperationErrorKind,
  type OperationName,
} from './errors.js';
export {
  LocalBots,
  localBot,
  type Awaitable,
  type BotAccess,
  type BotSample,
  type LocalBot,
  type OperatedBot,
} from './bot-access.js';
export { journalPort, type OperationsJournal } from './journal-port.js';
export type { RunListener } from './run-book.js';
export type { RunFailure, RunStatus, RunView, StepView } from './run-view.js';
export {
  CONTROL_ACTIONS,
  type ControlAction,
  type ControlAnswer,
  type GetRunOptions,
  type RunOptions,
  type RunOutcome,
  type StartedRun,
  type StartOptions,
} from './runs.js';
export type { CapabilityView, HistoryPage, IncidentsQuery } from './queries.js';
export type { ObserveQuery, WorldView } from './observe.js';
export type { ValidationAnswer } from './validate.js';
