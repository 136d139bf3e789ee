import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

const suite = embeddedSuite({ bot: { inventory: { cobblestone: 4 } } });

const put = (x: number, y: number, z: number, item = 'cobblestone') => ({
  stepId: `place-${x}-${y}-${z}`,
  type: 'place_block',
  args: { position: { x, y, z }, item },
});

describe('place_block on the embedded server', () => {
  it('walks within reach and places the block: set on the server, taken from the inventory', async () => {
    const { result, events } = await suite.run('mason', [put(8, 5, 1)]);
    expect(result.steps[0]!.outcome).toEqual({ ok: true });
    expect(await suite.server.blockAt({ x: 8, y: 5, z: 1 })).toBe('cobblestone');
    expect(suite.server.player('mason')!.inventory.cobblestone).toBe(3);
    expect(events.find((e) => e.type === 'step.firstAction')).toMatchObject({ command: 'goto' });
  });

  it('refuses a cell with nothing to place against, leaving the world and inventory as they were', async () => {
    const { result } = await suite.run('floater', [put(-3, 9, -3)]);
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'guard_failed' });
    expect(await suite.server.blockAt({ x: -3, y: 9, z: -3 })).toBe('air');
    expect(suite.server.player('floater')!.inventory.cobblestone).toBe(4);
  });
});
