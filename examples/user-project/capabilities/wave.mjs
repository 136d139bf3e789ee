// A verb of your own, written as a user writes one: a plain module importing only zod.
// verbtree.config.mjs names this file; every verbtree command then knows `wave`.
import { z } from 'zod';

const Point = z.strictObject({ x: z.number(), y: z.number(), z: z.number() });

/** wave: walk within 1 block of a spot and wave there. */
export const wave = {
  name: 'wave',
  version: '1.0.0',
  description: 'Walk within 1 block of a spot and wave there.',
  inputSchema: z.strictObject({ spot: Point.describe('Where to stand, within 1 block.') }),
  safetyLevel: 'safe',
  expectedDurationMs: 5000,
  retryableCodes: ['no_path'],
  preconds: [],
  effects: ['bot_near(spot)'],
  // Its tree, trees/wave.mdsl, found through the config's `trees`.
  tree: 'wave',
  moves: true,
  bindings: {
    actions: { wave_arm: (ctx) => ctx.actuate('wave_arm', async () => true) },
    arity: { wave_arm: 0 },
  },
  guard: ({ world }) => (world.isConnected() ? { ok: true } : { ok: false, reason: 'not connected' }),
  // Done means: the bot stands within 1 block of the spot, as the world holds it.
  expect: (_pre, { spot }) => [{ kind: 'position', goal: { kind: 'near', ...spot, range: 1 } }],
};

export default [wave];
