import { defineCapability } from 'verbtree';
import { bedQuery } from './bed.js';
import { sleepBindings } from './bindings.js';
import { sleepGuard } from './guard.js';
import { SleepArgs } from './schema.js';
import { sleepSubgoals } from './subgoals.js';

export default defineCapability({
  name: 'sleep',
  version: '1.0.0',
  description:
    'Walk to a bed (named, or the nearest; one carried is placed beside the bot) and sleep through the night; verified by the day having come.',
  inputSchema: SleepArgs,
  safetyLevel: 'safe',
  expectedDurationMs: 20_000,
  retryableCodes: ['no_path', 'stuck.position', 'stuck.path', 'ttfa_exceeded', 'world_disconnected'],
  preconds: ['near_block', 'night'],
  effects: ['daytime'],
  tree: 'sleep',
  // Lying still in bed is the point: the position detectors stay off (the walk to the bed has its own stall checks).
  actuators: ['sleep'],
  observes: bedQuery,
  bindings: sleepBindings,
  guard: sleepGuard,
  subgoals: sleepSubgoals,
  // Done means the night is over in the world, as its truth holds the time.
  expect: () => [{ kind: 'daytime' }],
});
