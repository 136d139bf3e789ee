import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';
import { match } from '../../test/helpers/matchers.js';

const suite = embeddedSuite({
  blocks: [
    { x: 6, y: 5, z: 2, block: 'oak_log' },
    { x: -2, y: 5, z: 2, block: 'bedrock' },
    { x: -2, y: 5, z: -2, block: 'obsidian' },
  ],
  bot: { inventory: { stone_axe: 1, dirt: 2 } },
});

const dig = (x: number, y: number, z: number, block?: string) => ({
  stepId: `dig-${x}-${y}-${z}`,
  type: 'dig_block',
  args: { position: { x, y, z }, ...(block ? { block } : {}) },
});

describe('dig_block on the embedded server', () => {
  it('walks within reach, holds the axe and fells a log: air on the server', async () => {
    const { result, bot, events } = await suite.run('feller', [dig(6, 5, 2, 'oak_log')]);
    expect(result.steps[0]!.outcome).toEqual({ ok: true });
    expect(await suite.server.blockAt({ x: 6, y: 5, z: 2 })).toBe('air');
    expect(bot.heldItem()).toBe('stone_axe');
    expect(events.find((e) => e.type === 'step.firstAction')).toMatchObject({ command: 'goto' });
  });

  it('refuses bedrock before any actuator runs (guard_failed); the block stays', async () => {
    const { result, events } = await suite.run('bedrock', [dig(-2, 5, 2)]);
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'guard_failed' });
    expect(events.some((e) => e.type === 'step.firstAction')).toBe(false);
    expect(await suite.server.blockAt({ x: -2, y: 5, z: 2 })).toBe('bedrock');
  });

  it('refuses obsidian by hand: 250 s of digging is beyond the step, and the reason names the tool', async () => {
    const { result } = await suite.run('obsidian', [dig(-2, 5, -2, 'obsidian')]);
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'guard_failed',
      detail: match.stringContaining('diamond_pickaxe'),
    });
    expect(await suite.server.blockAt({ x: -2, y: 5, z: -2 })).toBe('obsidian');
  });
});
