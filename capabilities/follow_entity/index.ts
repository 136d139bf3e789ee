import { defineCapability, describeTarget, type Expectation, type GuardResult, targetOf, targetQuery } from 'verbtree';
import { followEntityBindings } from './bindings.js';
import { FollowEntityArgs } from './schema.js';

/** Walking up and settling, besides the time asked. */
const SLACK_MS = 10_000;

export default defineCapability({
  name: 'follow_entity',
  version: '1.0.0',
  description:
    'Follow an entity (a mob or a player, by id or the nearest of a kind), keeping within range, for a time or until the run is cancelled; verified by standing near it at the end.',
  inputSchema: FollowEntityArgs,
  safetyLevel: 'safe',
  expectedDurationMs: 60_000 + SLACK_MS,
  durationFor: ({ forMs }) => forMs + SLACK_MS,
  retryableCodes: ['no_path', 'ttfa_exceeded', 'world_disconnected'],
  preconds: ['entity_in_sight'],
  effects: ['near_entity'],
  tree: 'follow_entity',
  // Its walks are gotos with their own path checks; standing still beside a still entity is its job, not a stall.
  idles: true,
  observes: targetQuery,
  bindings: followEntityBindings,
  guard: ({ observation }, args): GuardResult =>
    targetOf(args, observation)
      ? { ok: true }
      : {
          ok: false,
          reason: `no ${describeTarget(args)} within ${args.within} blocks to follow`,
          missing: { predicate: 'entity_in_sight', detail: { target: args.target } },
        },
  expect: (pre, args): Expectation[] => {
    const target = targetOf(args, pre);
    return target ? [{ kind: 'near_entity', id: target.id, name: target.name, within: args.range + 1 }] : [];
  },
});
