import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { AttackStyle, BodyPart, LivingEntity, WorldPort } from '../../src/contracts/world.js';
import { attackCooldownMs, blastDamage, TICK_MS } from '../../src/world/mob-rules/index.js';
import { parseScenario, type ScenarioInput } from '../../src/world/scenario/index.js';
import { simWorldFromScenario } from '../../src/world/sim-scenario.js';
import { serverPerCase } from '../helpers/server-per-case.js';

/*
 * The combat rules (src/world/mob-rules/combat.ts, armour.ts, explosion.ts) on both worlds, case by case: the same
 * scenario and the same moves, the same outcome read from each world's truth. Superflat grass at y=4, the bot at
 * (0, 5, 0); SimWorld on virtual time, the embedded server on its own with a real bot.
 */

interface Side {
  world: WorldPort;
  /** Lets `ms` pass in the world. */
  wait(ms: number): Promise<void>;
  health(): number;
  mobs(): Promise<LivingEntity[]>;
}

interface Case {
  name: string;
  scenario: Omit<ScenarioInput, 'name'>;
  play(side: Side): Promise<unknown>;
  expected: unknown;
}

const LEATHER: [string, BodyPart][] = [
  ['leather_helmet', 'head'],
  ['leather_chestplate', 'torso'],
  ['leather_leggings', 'legs'],
  ['leather_boots', 'feet'],
];

/** Waits in steps of a tick until `done` holds or `limitMs` passes. */
async function until(side: Side, done: () => boolean | Promise<boolean>, limitMs: number): Promise<void> {
  for (let waited = 0; waited < limitMs && !(await done()); waited += TICK_MS) await side.wait(TICK_MS);
}

/** A bot with a stone sword and a zombie 2 blocks off: a wall behind the zombie stops its knock-back, so it stays in reach. */
const ZOMBIE_AT_A_WALL: Case['scenario'] = {
  bot: { inventory: { stone_sword: 1 } },
  fills: [{ from: { x: 3, y: 5, z: -2 }, to: { x: 3, y: 6, z: 2 }, block: 'stone' }],
  mobs: [{ name: 'zombie', x: 2, y: 5, z: 0, ai: false }],
};

/** Draws the sword and swings at full charge in `style` until the zombie is gone: its health after each hit. */
async function swingUntilGone(side: Side, style: AttackStyle, settleTicks: number): Promise<(number | 'gone')[]> {
  await side.world.equip('stone_sword', 'hand');
  const healths: (number | 'gone')[] = [];
  for (let hit = 0; hit < 8 && healths.at(-1) !== 'gone'; hit++) {
    await side.wait(attackCooldownMs('stone_sword') + TICK_MS);
    const [zombie] = await side.mobs();
    await side.world.attack!(zombie!.id, { style });
    await side.wait(settleTicks * TICK_MS);
    const after = (await side.mobs())[0];
    healths.push(after ? Math.round(after.health! * 100) / 100 : 'gone');
  }
  return healths;
}

const cases: Case[] = [
  {
    name: 'a stone sword swung at full charge takes a zombie (2 armour points) down 4.92 a hit: five hits',
    scenario: ZOMBIE_AT_A_WALL,
    play: (side) => swingUntilGone(side, 'plain', 2),
    expected: [15.08, 10.16, 5.24, 0.32, 'gone'],
  },
  {
    name: 'a critical stone-sword swing (jump, strike on the way down) takes a zombie down 7.38 a hit: three hits',
    scenario: ZOMBIE_AT_A_WALL,
    // Landed before the next jump: a jump from mid-air would not come down as one.
    play: (side) => swingUntilGone(side, 'critical', 20),
    expected: [12.62, 5.24, 'gone'],
  },
  {
    name: 'under a ceiling two blocks up a critical swing (a hop into the ceiling, struck as it lands) still takes 7.38',
    scenario: {
      ...ZOMBIE_AT_A_WALL,
      fills: [...ZOMBIE_AT_A_WALL.fills!, { from: { x: -2, y: 7, z: -2 }, to: { x: 3, y: 7, z: 2 }, block: 'stone' }],
    },
    play: (side) => swingUntilGone(side, 'critical', 20),
    expected: [12.62, 5.24, 'gone'],
  },
  {
    name: "full leather (7 points) takes a zombie's 3 down to 2.34",
    scenario: {
      timeOfDay: 18_000,
      bot: { inventory: Object.fromEntries(LEATHER.map(([item]) => [item, 1])) },
      mobs: [{ name: 'zombie', x: 12, y: 5, z: 0 }],
    },
    async play(side) {
      for (const [item, part] of LEATHER) await side.world.equip(item, part);
      await until(side, () => side.health() < 20, 30_000);
      return Math.round((20 - side.health()) * 100) / 100;
    },
    expected: 2.34,
  },
  {
    name: "a creeper's blast hurts the bot by its distance in the open, and the creeper is gone",
    scenario: { timeOfDay: 18_000, mobs: [{ name: 'creeper', x: 6, y: 5, z: 0 }] },
    async play(side) {
      let last: LivingEntity | undefined;
      await until(
        side,
        async () => {
          last = (await side.mobs())[0] ?? last;
          return side.health() < 20;
        },
        30_000,
      );
      const bot = side.world.position();
      const gap = Math.hypot(last!.position.x - bot.x, last!.position.y - bot.y, last!.position.z - bot.z);
      return {
        asItsDistanceSays: Math.abs(20 - side.health() - blastDamage(3, gap, 1)) < 0.01,
        left: await side.mobs(),
      };
    },
    expected: { asItsDistanceSays: true, left: [] },
  },
];

const scenarioOf = (c: Case) => parseScenario({ name: 'combat-parity', ...c.scenario });
const LOOK = { names: ['zombie', 'creeper'], within: 32 };

describe('combat rules: the same outcomes on SimWorld and the embedded server', () => {
  for (const c of cases) {
    it(`SimWorld: ${c.name}`, async () => {
      const clock = new ManualClock();
      const world = simWorldFromScenario(scenarioOf(c), { clock });
      const side: Side = {
        world,
        // An actuator settles on the clock: run it and the clock together.
        wait: (ms) => clock.advance(ms),
        health: () => world.health(),
        mobs: async () => (await world.observe({ entities: LOOK })).entities!,
      };
      const driven = new Proxy(world, {
        get(target, key, receiver) {
          const value: unknown = Reflect.get(target, key, receiver);
          if (key !== 'equip' && key !== 'attack') return value;
          return async (...args: unknown[]) => {
            const done = (value as (...a: unknown[]) => Promise<void>).apply(target, args);
            await clock.advance(1000);
            await done;
          };
        },
      });
      expect(await c.play({ ...side, world: driven })).toEqual(c.expected);
      await world.close();
    });
  }

  const startServer = serverPerCase();
  for (const c of cases) {
    it(`embedded server: ${c.name}`, async () => {
      const { bot: world, server } = await startServer(scenarioOf(c), 'fighter');
      const side: Side = {
        world,
        wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        health: () => server.player('fighter')!.health,
        mobs: () => server.livingEntities(LOOK, server.player('fighter')!.position),
      };
      expect(await c.play(side)).toEqual(c.expected);
    }, 60_000);
  }
});
