import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

const suite = embeddedSuite({ bot: { inventory: { dirt: 5 } } });

const pillar = (args: Record<string, unknown>) => ({ stepId: 'pillar', type: 'pillar_up', args });

describe('pillar_up on the embedded server', () => {
  // Every bot spawns at (0, 5, 0): the refusal runs before the pillar fills that column.
  it('fails explicitly when asked to stand on a block the bot does not carry; nothing placed', async () => {
    const { result } = await suite.run('empty-handed', [pillar({ height: 2, block: 'cobblestone' })]);
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'precondition_missing' });
    expect(Math.floor(suite.server.player('empty-handed')!.position.y)).toBe(5);
    expect(suite.server.player('empty-handed')!.inventory).toEqual({ dirt: 5 });
  });

  it("rises three blocks on dirt placed underneath: the column and the height are the server's", async () => {
    const { result } = await suite.run('climber', [pillar({ height: 3 })]);
    expect(result.steps[0]!.outcome).toEqual({ ok: true });
    const player = suite.server.player('climber')!;
    expect(Math.floor(player.position.y)).toBe(8);
    expect(await Promise.all([5, 6, 7].map((y) => suite.server.blockAt({ x: 0, y, z: 0 })))).toEqual([
      'dirt',
      'dirt',
      'dirt',
    ]);
    expect(player.inventory.dirt).toBe(2);
  });
});
