import { defineCapability } from 'verbtree';
import { digInExpects } from './acceptance.js';
import { digInBindings } from './bindings.js';
import { digInGuard } from './guard.js';
import { DigInArgs } from './schema.js';

export default defineCapability({
  name: 'dig_in',
  version: '1.0.0',
  description:
    'Dig straight down and close the hole above, e.g. to shelter from zombies, spiders and skeletons at night.',
  inputSchema: DigInArgs,
  safetyLevel: 'caution',
  expectedDurationMs: 8_000,
  // Only a run that never acted: the hole is measured from where the bot stood at dispatch, and a second run after a
  // dig would dig deeper than that (an empty list would mean the defaults, which retry a failed acceptance).
  retryableCodes: ['ttfa_exceeded'],
  preconds: ['has_item', 'diggable_ground'],
  effects: ['dug_in'],
  tree: 'dig_in',
  bindings: digInBindings,
  guard: digInGuard,
  expect: digInExpects,
});
