import { ManualClock } from '../../src/clock/index.js';
import { SimWorld } from '../../src/world/sim/index.js';

/** A fight's SimWorld at night on flat ground (`radius` blocks of it), the bot at its centre holding `held`. */
export function nightFightWorld(held: string | null, radius: number): { clock: ManualClock; world: SimWorld } {
  const clock = new ManualClock();
  const world = SimWorld.create({
    clock,
    ground: { top: 4, radius },
    spawn: { x: 0, y: 5, z: 0 },
    timeOfDay: 18_000,
    inventory: held ? { [held]: 1 } : {},
    heldItem: held,
  });
  return { clock, world };
}
