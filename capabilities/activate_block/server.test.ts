import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';
import { match } from '../../test/helpers/matchers.js';

// A two-block oak door, a lever on the grass and a hoe in the pack; the ground's grass is at y=4.
const suite = embeddedSuite({
  blocks: [
    { x: 4, y: 5, z: 2, block: 'oak_door' },
    { x: 4, y: 6, z: 2, block: 'oak_door' },
    { x: -3, y: 5, z: 1, block: 'lever' },
  ],
  bot: { inventory: { wooden_hoe: 1 } },
});

const use = (stepId: string, args: Record<string, unknown>) => ({ stepId, type: 'activate_block', args });

describe('activate_block on the embedded server', () => {
  it('opens a door (both halves), flips a lever, tills grass with a hoe and shuts the door, as the server holds each', async () => {
    const { result } = await suite.run('janitor', [
      use('open', { x: 4, y: 5, z: 2, state: 'open' }),
      use('lever', { x: -3, y: 5, z: 1 }),
      use('till', { x: 1, y: 4, z: -2, item: 'wooden_hoe' }),
    ]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(await suite.server.blockStateAt({ x: 4, y: 5, z: 2 })).toEqual({
      name: 'oak_door',
      properties: { open: true },
    });
    expect(await suite.server.blockStateAt({ x: 4, y: 6, z: 2 })).toEqual({
      name: 'oak_door',
      properties: { open: true },
    });
    expect(await suite.server.blockStateAt({ x: -3, y: 5, z: 1 })).toEqual({
      name: 'lever',
      properties: { powered: true },
    });
    expect(await suite.server.blockAt({ x: 1, y: 4, z: -2 })).toBe('farmland');

    const shut = await suite.run('janitor2', [use('shut', { x: 4, y: 6, z: 2, state: 'closed' })]);
    expect(shut.result.ok, JSON.stringify(shut.result.steps.map((s) => s.outcome))).toBe(true);
    expect(await suite.server.blockStateAt({ x: 4, y: 5, z: 2 })).toEqual({
      name: 'oak_door',
      properties: { open: false },
    });
  }, 90_000);

  it('refuses bedrock with the reason and sends no click', async () => {
    const { result, events } = await suite.run('janitor3', [use('bedrock', { x: 0, y: 0, z: 3 })]);
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'guard_failed',
      detail: match.stringContaining('using the bedrock at 0,0,3 does nothing here'),
    });
    expect(events.some((e) => e.type === 'step.firstAction')).toBe(false);
  }, 30_000);
});
