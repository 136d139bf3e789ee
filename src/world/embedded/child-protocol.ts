import type { Scenario } from '../scenario/index.js';
import type { ServerPlayerState } from './embedded-server.js';

/** Messages between the executor process and a child running the embedded server. */

export interface ChildStartOptions {
  scenario: Scenario;
  port: number;
  host: string;
  viewDistance?: number;
  entityTrackingRange?: number;
  storage?: { folder: string; fresh: boolean; saveEveryMs?: number };
  forwardLog: boolean;
}

export type RemoteMethod =
  | 'blockAt'
  | 'blockStateAt'
  | 'containerAt'
  | 'livingEntities'
  | 'droppedItems'
  | 'setBlock'
  | 'setHealth'
  | 'setFood'
  | 'kick'
  | 'setTimeOfDay';

export type ToChild =
  | { type: 'start'; options: ChildStartOptions }
  | { type: 'call'; id: number; method: RemoteMethod; args: unknown[] }
  | { type: 'stop' };

export type FromChild =
  | { type: 'ready'; host: string; port: number; version: string }
  | { type: 'failed'; message: string }
  | { type: 'players'; players: Record<string, ServerPlayerState>; timeOfDay: number }
  | { type: 'result'; id: number; value?: unknown; error?: string }
  | { type: 'log'; line: string }
  | { type: 'stopped' };
