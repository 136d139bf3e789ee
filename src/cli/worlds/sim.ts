import { z } from 'zod';
import { stepClock } from '../../clock/lag-discounting-clock.js';
import { simWorldFromJournal } from '../../journal/sim-restore.js';
import { simWorldFromScenario, SUPERFLAT_GROUND } from '../../world/sim-scenario.js';
import { SimWorld } from '../../world/sim/sim-world.js';
import { ScenarioRef, scenarioOf, scenarioRef, sha256Of, type WorldKindSpec } from './kind.js';

/** A SimWorld is its seed and its scenario's content: the same two build the same world. */
const SimDescriptor = z.strictObject({
  world: z.literal('sim'),
  identity: z.string(),
  seed: z.int(),
  scenario: ScenarioRef.optional(),
});
type SimDescriptor = z.infer<typeof SimDescriptor>;

export function simIdentity(seed: number, scenarioSha256: string | undefined): string {
  return `SimWorld seed ${seed}, ${scenarioSha256 ? `scenario sha256 ${scenarioSha256.slice(0, 12)}` : 'no scenario'}`;
}

const short = (hash: string) => hash.slice(0, 12);

export const simWorld: WorldKindSpec<SimDescriptor> = {
  kind: 'sim',
  summary: 'SimWorld: deterministic and in memory, from the seed (and the scenario, if given)',
  reads: ['scenario'],
  bots: 'apart',
  config: { seed: z.int().optional(), scenario: z.string().min(1).optional() },
  descriptor: SimDescriptor,

  async open(settings) {
    const clock = stepClock;
    const scenario = await scenarioOf(settings.scenario);
    const world = scenario
      ? simWorldFromScenario(scenario, { clock, seed: settings.seed })
      : SimWorld.create({ clock, seed: settings.seed, ground: SUPERFLAT_GROUND, spawn: { x: 0, y: 5, z: 0 } });
    const ref = settings.scenario ? scenarioRef(settings.scenario) : undefined;
    return {
      world,
      clock,
      describe: `SimWorld (seed ${settings.seed}${scenario ? `, scenario ${scenario.name}` : ''})`,
      descriptor: {
        world: 'sim',
        seed: settings.seed,
        ...(ref ? { scenario: ref } : {}),
        identity: simIdentity(settings.seed, ref?.sha256),
      },
      protect: scenario?.protected ?? [],
      close: () => world.close(),
    };
  },

  /** A scenario file changed or gone: its rebuild would be another world. */
  notTheSame(descriptor) {
    if (!descriptor.scenario) return null;
    const now = sha256Of(descriptor.scenario.path);
    if (now === descriptor.scenario.sha256) return null;
    return now === null
      ? `its scenario file ${descriptor.scenario.path} is gone, so the SimWorld it ran in cannot be rebuilt`
      : `its scenario file ${descriptor.scenario.path} changed since the plan ran (sha256 ${short(descriptor.scenario.sha256)} then, ${short(now)} now), so a rebuilt SimWorld would be another world`;
  },

  /**
   * A SimWorld died with its process: it is rebuilt from the scenario and the effects of the current line's
   * verified steps (the world the last verified step left; a step killed midway runs again).
   */
  async reopen(descriptor, { journal, planId }) {
    const scenario = await scenarioOf(descriptor.scenario?.path);
    const world = await simWorldFromJournal(journal, planId, {
      clock: stepClock,
      seed: descriptor.seed,
      ...(scenario ? { scenario } : {}),
    });
    return {
      world,
      clock: stepClock,
      describe: `SimWorld rebuilt from the journal (seed ${descriptor.seed}${scenario ? `, scenario ${scenario.name}` : ''} + effects of this line's verified steps)`,
      descriptor: { ...descriptor, identity: simIdentity(descriptor.seed, descriptor.scenario?.sha256) },
      protect: scenario?.protected ?? [],
      close: () => world.close(),
    };
  },
};
