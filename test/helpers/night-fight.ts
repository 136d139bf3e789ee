import { ManualClock } from '../../src/clock/index.js';
import type { PlanResult } from '../../src/executor/events.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { harness, type Harness, plan } from './executor.js';

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

/** A bot sent for logs at midnight on a flat field 60 blocks round, with hostiles about: a SimWorld defence case. */
export interface NightWork {
  /** What the bot carries. */
  pack: Record<string, number>;
  /** What it holds (one of its pack), or bare hands. */
  held: string | null;
  /** Its health at the start; full unless told. */
  health?: number;
  /** The cells (x, z) of the logs it is sent for, on the ground (y 0). */
  logs: readonly (readonly [number, number])[];
  /** The hostiles standing about at the start, each at the centre of its cell (x, z); still unless `ai`. */
  hostiles?: readonly { name: string; x: number; z: number; ai?: boolean }[];
  /** The assembly's options, e.g. a safety policy. */
  assembly?: Parameters<typeof harness>[1];
}

export interface NightWorkCase {
  h: Harness;
  /** The ids of `hostiles`, in their order. */
  hostiles: number[];
  /** Runs the plan that collects every log (one `collect_block` step, `log`), on virtual time. */
  collect: (maxMs?: number) => Promise<PlanResult>;
}

export async function nightWork(work: NightWork): Promise<NightWorkCase> {
  const h = await harness(
    {
      ground: { radius: 60 },
      timeOfDay: 18_000,
      inventory: work.pack,
      heldItem: work.held,
      ...(work.health !== undefined ? { health: work.health } : {}),
    },
    work.assembly,
  );
  for (const [x, z] of work.logs) h.world.fill({ x, y: 0, z }, { x, y: 0, z }, 'oak_log');
  const hostiles = (work.hostiles ?? []).map(({ name, x, z, ai }) =>
    h.world.spawnEntity({
      name,
      kind: 'hostile',
      position: { x: x + 0.5, y: 0, z: z + 0.5 },
      ...(ai !== undefined ? { ai } : {}),
    }),
  );
  const collect = (maxMs = 300_000) =>
    h.run(plan({ stepId: 'log', type: 'collect_block', args: { block: 'oak_log', count: work.logs.length } }), maxMs);
  return { h, hostiles, collect };
}
