import { defineCapability, type Expectation, HOSTILE_MOBS } from 'verbtree';
import { guardAreaBindings } from './bindings.js';
import { guardQuery, postOf } from './post.js';
import { GuardAreaArgs } from './schema.js';

/** Fights and walks back, besides the time asked. */
const SLACK_MS = 30_000;

export default defineCapability({
  name: 'guard_area',
  version: '1.0.0',
  description:
    'Stand guard at a post for a time or until the run is cancelled, fighting every hostile mob that comes within the radius; verified by no hostile mob inside the radius and the bot at its post.',
  inputSchema: GuardAreaArgs,
  safetyLevel: 'caution',
  expectedDurationMs: 60_000 + SLACK_MS,
  durationFor: ({ forMs }) => forMs + SLACK_MS,
  retryableCodes: ['no_path', 'ttfa_exceeded', 'world_disconnected'],
  preconds: [],
  effects: ['area_clear'],
  tree: 'guard_area',
  actuators: ['attack'],
  // Waiting at the post is the job, and hostiles are what it is there for.
  idles: true,
  engagesHostiles: true,
  observes: guardQuery,
  bindings: guardAreaBindings,
  guard: ({ world }) => (world.attack ? { ok: true } : { ok: false, reason: `the ${world.kind} world cannot attack` }),
  // Done means the area is clear (every hostile inside it dead or driven out) and the bot is back at its post.
  expect: (pre, args): Expectation[] => {
    const post = postOf(args, pre)!;
    return [
      { kind: 'position', goal: { kind: 'near', ...post, range: 3 } },
      {
        kind: 'no_entities',
        names: [...HOSTILE_MOBS],
        around: { x: post.x + 0.5, y: post.y, z: post.z + 0.5 },
        radius: args.radius,
      },
    ];
  },
});
