import { describe, expect, it } from 'vitest';
import attackEntity from '../../capabilities/attack_entity/index.js';
import { createDefaultRegistry } from '../../capabilities/index.js';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { defineCapability } from '../../src/index.js';
import { nightWork } from '../helpers/night-fight.js';

/*
 * Issue 30, the server's world 9 of a tech-tree run by day: a fight with a lone zombie was judged ("a zombie,
 * wooden_sword 4 per hit, expected 4.4 damage taken of 20"), yet the bot fled it four times, and the events said only
 * "flee away from all: ... below the floor of 6": the fight's own guard had refused it, and nothing said why. A response
 * its guard passes over is named, with the guard's reason, in the event of the one taken.
 */

type Emergency = Extract<ExecutorEvent, { type: 'safety.emergency' }>;

/** attack_entity as shipped, but a newer version whose guard refuses every target. */
function refusingFights() {
  return createDefaultRegistry().register(
    defineCapability({
      ...attackEntity,
      version: '1.0.1',
      guard: () => ({ ok: false, reason: 'this test refuses every fight' }),
    }),
  );
}

describe('a safety response its guard refuses is named in the event of the one taken', () => {
  it('a fight refused by its guard: the flight taken says the fight was passed over, and why', async () => {
    const { h, collect } = await nightWork({
      pack: { stone_sword: 1 },
      held: 'stone_sword',
      logs: [[12, 0]],
      hostiles: [{ name: 'zombie', x: 4, z: 0, ai: true }],
      assembly: { registry: refusingFights() },
    });
    await collect(60_000);
    const emergencies = h.events.filter((e): e is Emergency => e.type === 'safety.emergency');
    const first = emergencies[0];
    expect(first, JSON.stringify(emergencies)).toBeDefined();
    expect(first!.response).not.toBe('attack_entity');
    expect(first!.detail).toContain('its guard passed over attack_entity (this test refuses every fight)');
    expect(h.events.some((e) => e.type === 'step.started' && e.verb === 'attack_entity')).toBe(false);
  });
});
