import minecraftData from 'minecraft-data';
import { z } from 'zod';
import { MINECRAFT_VERSION } from '../recipes.js';
import { closestMatch } from '../../registry/suggest.js';
import { survivalTerrain } from '../terrain/survival-terrain.js';
import { MOB_NAMES, mobKind } from '../mobs.js';
import { MOB_HEALTH } from '../actuator-rules.js';

const data = minecraftData(MINECRAFT_VERSION);

/** Most blocks a scenario may set in total; keeps a typo in a fill region from stalling the server. */
export const MAX_SCENARIO_BLOCKS = 100_000;

/** Slots a bot's inventory has for a scenario's items (the hotbar and the main inventory). */
export const INVENTORY_SLOTS = 36;

function knownName(kind: 'block' | 'item', names: Record<string, unknown>) {
  return z.string().superRefine((name, ctx) => {
    if (Object.hasOwn(names, name)) return;
    const suggestion = closestMatch(name, Object.keys(names));
    ctx.addIssue({
      code: 'custom',
      message: `unknown ${kind} "${name}": use a minecraft-data ${MINECRAFT_VERSION} ${kind} name${suggestion ? `; did you mean "${suggestion}"?` : ', e.g. "oak_log"'}`,
    });
  });
}

export const BlockName = knownName('block', data.blocksByName);
const MobName = z.string().superRefine((name, ctx) => {
  if (MOB_NAMES.includes(name)) return;
  const suggestion = closestMatch(name, [...MOB_NAMES]);
  ctx.addIssue({
    code: 'custom',
    message: `"${name}" is no mob: use a minecraft-data ${MINECRAFT_VERSION} hostile or passive mob${suggestion ? `; did you mean "${suggestion}"?` : ', e.g. "zombie" or "cow"'}`,
  });
});
export const ItemName = knownName('item', data.itemsByName);
const HostileName = MobName.refine((name) => mobKind(name) === 'hostile', {
  message: 'is a passive mob: night spawning takes hostile ones, e.g. "zombie" or "skeleton"',
});

const coordinate = z.number().int('must be a whole block coordinate, e.g. 4').min(-30_000_000).max(30_000_000);
const height = z
  .number()
  .int('must be a whole block coordinate, e.g. 5')
  .min(-64, 'must be >= -64 (the world bottom)')
  .max(319, 'must be <= 319 (the build limit)');

export const BlockPosition = z.strictObject({ x: coordinate, y: height, z: coordinate });
export type BlockPosition = z.infer<typeof BlockPosition>;

export const ScenarioMob = z.strictObject({
  name: MobName,
  x: coordinate,
  y: height,
  z: coordinate,
  /** False: it stands where it is put and never fights (default true: it lives by the game's rules). */
  ai: z.boolean().optional(),
  /** Its health when the world starts (default a full 20). */
  health: z.number().min(1).max(MOB_HEALTH).optional(),
});
export type ScenarioMob = z.infer<typeof ScenarioMob>;

export const FillRegion = z.strictObject({ from: BlockPosition, to: BlockPosition, block: BlockName });
export type FillRegion = z.infer<typeof FillRegion>;

export const SingleBlock = z.strictObject({ x: coordinate, y: height, z: coordinate, block: BlockName });
export type SingleBlock = z.infer<typeof SingleBlock>;

export const BotSetup = z.strictObject({
  /** Item name to count; stacks larger than an item's stack size fill several slots. */
  inventory: z
    .record(
      z.string(),
      z
        .number()
        .int('must be a whole number of items')
        .min(1)
        .max(36 * 64),
    )
    .superRefine((inventory, ctx) => {
      for (const name of Object.keys(inventory)) {
        const checked = ItemName.safeParse(name);
        if (!checked.success) ctx.addIssue({ code: 'custom', path: [name], message: checked.error.issues[0]!.message });
      }
      const stacks = Object.entries(inventory).map(([name, count]) => ({
        name,
        count,
        slots: Math.ceil(count / (data.itemsByName[name]?.stackSize ?? 64)),
      }));
      const slots = stacks.reduce((sum, stack) => sum + stack.slots, 0);
      if (slots > INVENTORY_SLOTS) {
        const biggest = stacks
          .sort((a, b) => b.slots - a.slots)
          .slice(0, 3)
          .map((s) => `${s.count} ${s.name} take ${s.slots}`);
        ctx.addIssue({
          code: 'custom',
          message: `needs ${slots} inventory slots, more than the bot's ${INVENTORY_SLOTS} (each slot holds one stack of an item's stack size: ${biggest.join(', ')}); give fewer items`,
        });
      }
    })
    .default({}),
  health: z.number().min(1, 'must be >= 1 (a bot cannot spawn dead)').max(20).default(20),
  food: z.number().int().min(0).max(20).default(20),
});
export type BotSetup = z.infer<typeof BotSetup>;

/** The scenario's fields as written (before the default spawn is filled in): what error messages name. */
export const ScenarioFields = z
  .strictObject({
    name: z.string().min(1).max(100),
    description: z.string().max(2000).optional(),
    /** Where bots spawn; on generated terrain, by default the dry ground nearest to (0, 0). */
    spawn: BlockPosition.optional(),
    /**
     * The ground: superflat (grass at y=4), or a survival world generated from a seed
     * (hills, trees, ores, a cave), the same on the embedded server and in SimWorld.
     */
    terrain: z
      .discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('flat') }),
        z.strictObject({
          kind: z.literal('survival'),
          seed: z
            .int('must be a whole number, e.g. 7')
            .min(0)
            .max(2 ** 31 - 1),
        }),
      ])
      .default({ kind: 'flat' }),
    /** Time of day in ticks: 0 sunrise, 6000 noon, 13000 night, 18000 midnight. */
    timeOfDay: z.number().int().min(0).max(23_999).default(1000),
    /** False freezes the time of day so a scenario stays as written. */
    daylightCycle: z.boolean().default(false),
    fills: z.array(FillRegion).max(1000).default([]),
    blocks: z.array(SingleBlock).max(MAX_SCENARIO_BLOCKS).default([]),
    /** Boxes of cells no repair may break or build over (the executor's `policy.protect`), e.g. a structure to keep. */
    protected: z
      .array(z.strictObject({ from: BlockPosition, to: BlockPosition }))
      .max(100)
      .default([]),
    bot: BotSetup.default({ inventory: {}, health: 20, food: 20 }),
    /**
     * Mobs in the world when it starts. They live by the game's rules (src/world/mob-rules/): zombies and skeletons
     * hunt a player they see, burn by day under open sky; animals stroll. `ai: false` keeps one standing where it
     * is put (a target, a fixture), `health` starts it hurt. Default: none on flat ground, the terrain's own on a
     * generated one; `[]` for none.
     */
    mobs: z.array(ScenarioMob).max(100).optional(),
    /**
     * Hostile mobs spawning at night, as the game spawns them in the dark: `kinds` (e.g. ["zombie", "skeleton"]),
     * up to `maxNearby` within `radius` blocks of each player, never within 24 of one. Off unless given.
     */
    spawnAtNight: z
      .strictObject({
        kinds: z.array(HostileName).min(1).max(10),
        maxNearby: z.int('must be a whole number of mobs, e.g. 4').min(1).max(30).default(4),
        radius: z
          .int('must be a whole number of blocks, e.g. 40')
          .min(25, 'must be >= 25: the game never spawns a mob within 24 blocks of a player')
          .max(128),
      })
      .optional(),
  })
  .superRefine((scenario, ctx) => {
    const total = scenario.fills.reduce((sum, fill) => sum + volume(fill), 0) + scenario.blocks.length;
    if (total > MAX_SCENARIO_BLOCKS) {
      ctx.addIssue({
        code: 'custom',
        path: ['fills'],
        message: `sets ${total} blocks in total, more than ${MAX_SCENARIO_BLOCKS}: shrink the fill regions (check "from"/"to" for a typo)`,
      });
    }
  });

/**
 * A reproducible starting world: where the bot spawns, what blocks are set on
 * top of the superflat ground (grass at y=4, so a bot stands at y=5), what the
 * bot carries, and the time of day.
 */
export const Scenario = ScenarioFields.transform((scenario) => {
  const terrain = scenario.terrain.kind === 'survival' ? survivalTerrain(scenario.terrain.seed) : null;
  return {
    ...scenario,
    spawn: scenario.spawn ?? terrain?.spawn ?? FLAT_SPAWN,
    mobs: scenario.mobs ?? (terrain ? terrain.mobs.map((mob): ScenarioMob => ({ ...mob })) : []),
  };
});
export type Scenario = z.infer<typeof Scenario>;
export type ScenarioInput = z.input<typeof Scenario>;

const FLAT_SPAWN: BlockPosition = { x: 0, y: 5, z: 0 };

export function volume(fill: FillRegion): number {
  return (
    (Math.abs(fill.to.x - fill.from.x) + 1) *
    (Math.abs(fill.to.y - fill.from.y) + 1) *
    (Math.abs(fill.to.z - fill.from.z) + 1)
  );
}
