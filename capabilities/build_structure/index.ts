import { defineCapability } from 'verbtree';
import { buildStructureExpects } from './acceptance.js';
import { buildStructureBindings } from './bindings.js';
import { buildStructureGuard } from './guard.js';
import { plannedBlocks } from './plan.js';
import { BuildStructureArgs } from './schema.js';

export default defineCapability({
  name: 'build_structure',
  version: '1.0.0',
  description:
    'Place the blocks of a blueprint (e.g. a 3x3 shelter) at an origin, bottom layer first, reporting progress per block.',
  inputSchema: BuildStructureArgs,
  safetyLevel: 'safe',
  expectedDurationMs: 60_000,
  retryableCodes: [
    'no_path',
    'stuck.position',
    'stuck.progress',
    'ttfa_exceeded',
    'effects_unmet',
    'runner_error',
    'world_disconnected',
  ],
  preconds: ['has_item', 'cells_open'],
  effects: ['structure_built'],
  tree: 'build_structure',
  // Not `moves`: most of a build is placing while standing still, longer than the position detector allows.
  bindings: buildStructureBindings,
  guard: buildStructureGuard,
  expect: buildStructureExpects,
  observes: (args) => plannedBlocks(args).map(({ position }) => position),
});
