import { defineCapability } from 'verbtree';
import { leaveShelterExpects } from './acceptance.js';
import { leaveShelterBindings } from './bindings.js';
import { leaveShelterGuard } from './guard.js';
import { LeaveShelterArgs } from './schema.js';

export default defineCapability({
  name: 'leave_shelter',
  version: '1.0.0',
  description:
    'Come out of a pillar, a wall or a hole the bot sheltered in and stand on the ground outside, e.g. once the zombies left.',
  inputSchema: LeaveShelterArgs,
  safetyLevel: 'caution',
  expectedDurationMs: 6_000,
  // None: the way out is measured from where the bot stood at dispatch, and a second run would dig from elsewhere.
  retryableCodes: [],
  preconds: ['diggable_ground'],
  effects: ['left_shelter'],
  tree: 'leave_shelter',
  bindings: leaveShelterBindings,
  guard: leaveShelterGuard,
  expect: leaveShelterExpects,
});
