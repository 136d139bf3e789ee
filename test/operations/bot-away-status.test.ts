import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { systemClock } from '../../src/clock/index.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { LocalBots, localBot } from '../../src/operations/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { openTemp } from '../journal/helpers.js';

/*
 * A bot of `serve` or `mcp` away from its server (issue 31 §1): its status says so and since when, and nothing of
 * where it stood, its health or food, which were the dead session's view. Before, the listing kept the last position
 * the client had cached, as though the bot still stood there.
 */

let close: (() => Promise<void>) | null = null;
afterEach(async () => close?.());

describe("a served bot's status while it is away from its server", () => {
  it('says disconnected since when the connection dropped, with no position, health or food', async () => {
    const { journal } = openTemp();
    const world = SimWorld.create({ clock: systemClock, inventory: {} });
    const assembly = await assembleJournaled({
      registry: createDefaultRegistry(),
      world,
      clock: systemClock,
      journal,
      kind: 'test',
    });
    close = () => assembly.close();
    const bots = new LocalBots([localBot('ada', assembly)]);
    expect(bots.samples()).toMatchObject([
      { bot: 'ada', connected: true, position: { x: 0.5, y: 0, z: 0.5 }, health: 20 },
    ]);

    const before = Date.now();
    world.disconnect('the server closed');

    const [away] = bots.samples();
    expect(away).toMatchObject({ bot: 'ada', connected: false, position: null, health: null, food: null });
    const since = Date.parse(/^disconnected since (.+)$/.exec(away!.state)![1]!);
    expect(since).toBeGreaterThanOrEqual(before);
    expect(since).toBeLessThanOrEqual(Date.now());
  });
});
