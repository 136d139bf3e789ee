import { blockKey, type Vec3Like } from '../../contracts/world.js';
import { checkSleep, SLEEP_MONSTER_RANGE, SLEEP_MS } from '../actuator-rules.js';
import type { Operation } from './operation.js';
import type { DayClock } from './day-clock.js';
import type { SimParts } from './sim-parts.js';
import { requireReach } from './requirements.js';

/** The time of day a night in bed ends at: sunrise. */
const MORNING = 0;

/** Lies in the bed (within reach, at night, with no monster near), sleeps SLEEP_MS, and wakes at sunrise. */
export function sleep({ grid, body, entities }: SimParts, day: DayClock, op: Operation, bed: Vec3Like): void {
  const cell = { x: Math.floor(bed.x), y: Math.floor(bed.y), z: Math.floor(bed.z) };
  const monster = entities
    .list()
    .find(
      (e) =>
        e.kind === 'hostile' &&
        Math.hypot(e.position.x - body.feet.x, e.position.y - body.feet.y, e.position.z - body.feet.z) <=
          SLEEP_MONSTER_RANGE,
    );
  checkSleep(blockKey(cell), grid.get(cell.x, cell.y, cell.z), day.now(), monster);
  requireReach(body, 'sleep', cell);
  op.after(SLEEP_MS, () => {
    day.set(MORNING);
    op.succeed();
  });
}
