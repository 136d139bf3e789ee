import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { LivingEntity, Vec3Like } from '../../src/contracts/world.js';
import { parseScenario, type Scenario, type ScenarioInput } from '../../src/world/scenario/index.js';
import { simWorldFromScenario } from '../../src/world/sim-scenario.js';
import { serverPerCase } from '../helpers/server-per-case.js';

/*
 * The mob rules on both worlds, case by case: the same scenario, the same outcome (who got hurt, which mob came
 * close, which burnt), read from each world's truth. Superflat ground (grass at y=4), the bot standing still at its
 * spawn (0, 5, 0). SimWorld runs on virtual time, the embedded server on its own ticks with a real bot connected.
 */

interface Case {
  name: string;
  scenario: Omit<ScenarioInput, 'name'>;
  /** Done early when this holds (a hit, a death); otherwise the case runs its whole window. */
  until?: (truth: Truth) => boolean;
  windowMs: number;
  outcome: (truth: Truth) => unknown;
  expected: unknown;
}

interface Truth {
  health: number;
  bot: Vec3Like;
  mobs: LivingEntity[];
}

const near = (truth: Truth, name: string, within: number) =>
  truth.mobs.some(
    (m) => m.name === name && Math.hypot(m.position.x - truth.bot.x, m.position.z - truth.bot.z) <= within,
  );
const at = (truth: Truth, x: number, z: number) =>
  truth.mobs.find((m) => Math.floor(m.position.x) === x && Math.floor(m.position.z) === z) ?? null;

/** A box of `wall` around a mob's two cells, roofed with `roof`. */
function cage(x: number, z: number, wall: string, roof: string) {
  return [
    { from: { x: x - 1, y: 5, z: z - 1 }, to: { x: x + 1, y: 6, z: z + 1 }, block: wall },
    { from: { x: x - 1, y: 7, z: z - 1 }, to: { x: x + 1, y: 7, z: z + 1 }, block: roof },
    { from: { x, y: 5, z }, to: { x, y: 6, z }, block: 'air' },
  ];
}

const cases: Case[] = [
  {
    name: 'at night a zombie 8 blocks off in the open walks up to the bot and hits it',
    scenario: { timeOfDay: 18_000, mobs: [{ name: 'zombie', x: 8, y: 5, z: 0 }] },
    until: (t) => t.health < 20,
    windowMs: 20_000,
    outcome: (t) => ({ hurt: t.health < 20, zombieClose: near(t, 'zombie', 2.5) }),
    expected: { hurt: true, zombieClose: true },
  },
  {
    name: 'at night a skeleton 10 blocks off shoots the bot (3 to 5 an arrow) and keeps its distance',
    scenario: { timeOfDay: 18_000, mobs: [{ name: 'skeleton', x: -10, y: 5, z: 0 }] },
    until: (t) => t.health < 20,
    windowMs: 20_000,
    outcome: (t) => ({
      hurt: t.health < 20,
      byAnArrow: 20 - t.health >= 3 && 20 - t.health <= 5,
      skeletonKeptOff: !near(t, 'skeleton', 6),
    }),
    expected: { hurt: true, byAnArrow: true, skeletonKeptOff: true },
  },
  {
    name: 'at noon a zombie under open sky burns to death, one under a roof does not; a caged skeleton sees nothing',
    scenario: {
      timeOfDay: 6000,
      spawnAtNight: { kinds: ['zombie'], maxNearby: 4, radius: 40 },
      fills: [
        { from: { x: 38, y: 8, z: 4 }, to: { x: 42, y: 8, z: 8 }, block: 'stone' },
        ...cage(0, -8, 'glass', 'stone'),
      ],
      mobs: [
        { name: 'zombie', x: 40, y: 5, z: 0, health: 4 },
        { name: 'zombie', x: 40, y: 5, z: 6, health: 4 },
        { name: 'skeleton', x: 0, y: 5, z: -8 },
      ],
    },
    until: (t) => at(t, 40, 0) === null,
    windowMs: 20_000,
    outcome: (t) => ({
      openSkyZombie: at(t, 40, 0) ? 'alive' : 'gone',
      roofedZombie: at(t, 40, 6)?.health ?? 'gone',
      skeleton: at(t, 0, -8) ? 'in its cage' : 'gone',
      spawnedByDay: t.mobs.length - (at(t, 40, 0) ? 1 : 0) - (at(t, 40, 6) ? 1 : 0) - (at(t, 0, -8) ? 1 : 0),
      hurt: t.health < 20,
    }),
    expected: { openSkyZombie: 'gone', roofedZombie: 4, skeleton: 'in its cage', spawnedByDay: 0, hurt: false },
  },
  {
    name: 'at night, with spawning asked for, zombies spawn more than 24 blocks off, up to maxNearby',
    scenario: { timeOfDay: 18_000, spawnAtNight: { kinds: ['zombie'], maxNearby: 2, radius: 30 } },
    until: (t) => t.mobs.length >= 2,
    windowMs: 10_000,
    outcome: (t) => ({ zombies: t.mobs.filter((m) => m.name === 'zombie').length }),
    expected: { zombies: 2 },
  },
];

const scenarioOf = (c: Case): Scenario => parseScenario({ name: 'mobs-parity', ...c.scenario });
const LOOK = { names: ['zombie', 'skeleton'], within: 64 };

describe('mob rules: the same outcomes on SimWorld and the embedded server', () => {
  for (const c of cases) {
    it(`SimWorld: ${c.name}`, async () => {
      const clock = new ManualClock();
      const world = simWorldFromScenario(scenarioOf(c), { clock });
      const truth = async (): Promise<Truth> => ({
        health: world.health(),
        bot: { ...world.position() },
        mobs: (await world.observe({ entities: LOOK })).entities!,
      });
      let last = await truth();
      for (let waited = 0; waited < c.windowMs && !c.until?.(last); waited += 100) {
        await clock.advance(100);
        last = await truth();
      }
      expect(c.outcome(last)).toEqual(c.expected);
      await world.close();
    });
  }

  const startServer = serverPerCase();
  for (const c of cases) {
    it(`embedded server: ${c.name}`, async () => {
      const { bot, server } = await startServer(scenarioOf(c), 'target');
      const truth = async (): Promise<Truth> => {
        const { health, position } = server.player('target')!;
        return { health, bot: position, mobs: await server.livingEntities(LOOK, position) };
      };
      let last = await truth();
      const started = Date.now();
      while (Date.now() - started < c.windowMs && !c.until?.(last)) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        last = await truth();
      }
      expect(c.outcome(last)).toEqual(c.expected);
      expect(bot.isConnected()).toBe(true);
    }, 40_000);
  }
});
