import { z } from 'zod';
import { unmetGoal } from './stands-on.js';
import { blockKey, isNight, type Observation, type ObservationQuery, type Vec3Like } from './world.js';

/*
 * A step's effects as absolute facts about the world, each checkable against
 * one observation of it: "the pack holds at least 3 oak_log", "the block at P
 * is stone", "the bot stands at the goal". A capability derives them once, from
 * the world at dispatch and the step's arguments as asked; acceptance checks
 * them after each attempt, and a resume checks the journaled ones against the
 * live world. No delta against a snapshot: what they say holds or it does not.
 */

const Point = z.strictObject({ x: z.number(), y: z.number(), z: z.number() });
const Names = z.array(z.string().min(1)).min(1);

const Goal = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('block'), x: z.number(), y: z.number(), z: z.number() }),
  z.strictObject({ kind: z.literal('near'), x: z.number(), y: z.number(), z: z.number(), range: z.number().min(0) }),
  z.strictObject({ kind: z.literal('xz'), x: z.number(), z: z.number(), range: z.number().min(0).optional() }),
]);

export const Expectation = z.discriminatedUnion('kind', [
  z
    .strictObject({
      kind: z.literal('inventory'),
      item: z.string().min(1),
      atLeast: z.int().min(0).optional(),
      atMost: z.int().min(0).optional(),
    })
    .describe('The pack holds at least / at most this many of the item.'),
  z
    .strictObject({ kind: z.literal('inventory_total'), items: Names, atLeast: z.int().min(0) })
    .describe('The pack holds at least this many of these items together (e.g. any log).'),
  z
    .strictObject({ kind: z.literal('block'), at: Point, oneOf: Names.optional(), noneOf: Names.optional() })
    .describe('The block at a cell is one of / none of these names.'),
  z
    .strictObject({ kind: z.literal('position'), goal: Goal })
    .describe(
      'The bot stands (on the ground, its feet on the top of what is under them) in a cell that meets the navigation goal.',
    ),
  z
    .strictObject({ kind: z.literal('away'), from: Point, atLeast: z.number().min(0) })
    .describe('The bot is at least this far from a point.'),
  z.strictObject({ kind: z.literal('height'), atLeast: z.number() }).describe("The bot's feet are at least at this y."),
  z
    .strictObject({ kind: z.literal('held'), item: z.string().min(1).nullable() })
    .describe('The main hand holds this item (null: nothing).'),
  z.strictObject({ kind: z.literal('food'), atLeast: z.number() }).describe('The food bar is at least this.'),
  z
    .strictObject({ kind: z.literal('in_sight'), names: Names, within: z.number().positive() })
    .describe('A block of one of these names lies in the open within this many blocks of the bot.'),
  z
    .strictObject({
      kind: z.literal('container'),
      at: Point,
      item: z.string().min(1),
      atLeast: z.int().min(0).optional(),
      atMost: z.int().min(0).optional(),
    })
    .describe('The container (chest, furnace) at a cell holds at least / at most this many of the item.'),
  z
    .strictObject({
      kind: z.literal('near_entity'),
      id: z.int(),
      name: z.string().min(1),
      within: z.number().positive(),
    })
    .describe('The bot stands within this many blocks of the entity, which is alive, as the world holds both.'),
  z
    .strictObject({
      kind: z.literal('no_entities'),
      names: Names,
      around: Point.optional(),
      radius: z.number().positive(),
    })
    .describe(
      'No living entity of these names is within the radius of a point, or of the bot where it ends when `around` is omitted (horizontally), as the world holds them.',
    ),
  z
    .strictObject({
      kind: z.literal('block_state'),
      at: Point,
      name: z.string().min(1),
      properties: z.record(z.string(), z.boolean()),
    })
    .describe('The block at a cell is this block with these properties (open, powered), as the world holds it.'),
  z
    .strictObject({ kind: z.literal('daytime') })
    .describe('It is day in the world (the time of day is outside the night a bed can be slept in).'),
  z
    .strictObject({ kind: z.literal('entity_gone'), id: z.int(), name: z.string().min(1) })
    .describe('The entity (a mob) is dead or gone, as the world holds it.'),
  z
    .strictObject({
      kind: z.literal('no_drops'),
      around: Point,
      radius: z.number().positive(),
      item: z.string().min(1).optional(),
    })
    .describe('No dropped item (of this kind) lies within the radius of a point.'),
]);
export type Expectation = z.infer<typeof Expectation>;

export const Expectations = z.array(Expectation);

const at = (p: Vec3Like) => `(${p.x}, ${p.y}, ${p.z})`;
const distance = (a: Vec3Like, b: Vec3Like) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

/** One line a person can read: what the expectation asks. */
export function describeExpectation(e: Expectation): string {
  switch (e.kind) {
    case 'inventory': {
      const bounds = [
        e.atLeast !== undefined ? `at least ${e.atLeast}` : '',
        e.atMost !== undefined ? `at most ${e.atMost}` : '',
      ]
        .filter(Boolean)
        .join(' and ');
      return `the pack holds ${bounds || 'any number of'} ${e.item}`;
    }
    case 'inventory_total':
      return `the pack holds at least ${e.atLeast} of ${e.items.length === 1 ? e.items[0] : `${e.items.slice(0, 4).join(', ')}${e.items.length > 4 ? ', …' : ''} together`}`;
    case 'block': {
      const wanted = !e.oneOf
        ? 'anything'
        : e.oneOf.every((name) => name.endsWith('air'))
          ? 'empty (air)'
          : e.oneOf.join(' or ');
      return `the block at ${at(e.at)} is ${wanted}${e.noneOf ? ` and not ${e.noneOf.join(' or ')}` : ''}`;
    }
    case 'position':
      return e.goal.kind === 'xz'
        ? `the bot stands within ${e.goal.range ?? 0} of column (${e.goal.x}, ${e.goal.z})`
        : `the bot stands ${e.goal.kind === 'near' ? `within ${e.goal.range} of` : 'on'} ${at(e.goal)}`;
    case 'away':
      return `the bot is at least ${e.atLeast} blocks from ${at(e.from)}`;
    case 'height':
      return `the bot's feet are at y ≥ ${e.atLeast}`;
    case 'held':
      return `the main hand holds ${e.item ?? 'nothing'}`;
    case 'food':
      return `food is at least ${e.atLeast}`;
    case 'in_sight':
      return `a block of ${e.names.length === 1 ? e.names[0] : `${e.names.slice(0, 4).join(', ')}${e.names.length > 4 ? ', …' : ''}`} lies in the open within ${e.within} blocks of the bot`;
    case 'container': {
      const bounds = [
        e.atLeast !== undefined ? `at least ${e.atLeast}` : '',
        e.atMost !== undefined ? `at most ${e.atMost}` : '',
      ]
        .filter(Boolean)
        .join(' and ');
      return `the container at ${at(e.at)} holds ${bounds || 'any number of'} ${e.item}`;
    }
    case 'no_drops':
      return `no dropped ${e.item ?? 'item'} lies within ${e.radius} of ${at(e.around)}`;
    case 'entity_gone':
      return `the ${e.name} (entity ${e.id}) is dead or gone`;
    case 'daytime':
      return 'it is day';
    case 'block_state': {
      const state = Object.entries(e.properties).map(([key, value]) => (value ? key : `not ${key}`));
      return `the block at ${at(e.at)} is ${state.length > 0 ? `a ${state.join(', ')} ` : ''}${e.name}`;
    }
    case 'no_entities':
      return `no ${e.names.length === 1 ? e.names[0] : e.names.length > 3 ? 'hostile mob' : e.names.join(' or ')} is within ${e.radius} of ${e.around ? at(e.around) : 'the bot'}`;
    case 'near_entity':
      return `the bot stands within ${e.within} of the ${e.name} (entity ${e.id})`;
  }
}

/** What does not hold, with the evidence observed; null when the expectation holds. */
export function unmetExpectation(e: Expectation, observation: Observation): string | null {
  switch (e.kind) {
    case 'inventory': {
      const count = observation.inventory[e.item] ?? 0;
      if ((e.atLeast === undefined || count >= e.atLeast) && (e.atMost === undefined || count <= e.atMost)) return null;
      return `${describeExpectation(e)}: it holds ${count}`;
    }
    case 'inventory_total': {
      const total = inventoryTotal(observation.inventory, e.items);
      return total >= e.atLeast ? null : `${describeExpectation(e)}: it holds ${total}`;
    }
    case 'block': {
      const name = observation.blocks[blockKey(e.at)];
      if (name === undefined) return `${describeExpectation(e)}: the cell was not observed`;
      if ((!e.oneOf || e.oneOf.includes(name)) && (!e.noneOf || !e.noneOf.includes(name))) return null;
      return `${describeExpectation(e)}: it holds ${name}`;
    }
    case 'position': {
      if (!observation.footing) return `${describeExpectation(e)}: its footing was not observed`;
      const why = unmetGoal(e.goal, observation.position, observation.footing);
      return why === null ? null : `${describeExpectation(e)}: ${why}`;
    }
    case 'away': {
      const d = distance(observation.position, e.from);
      return d >= e.atLeast ? null : `${describeExpectation(e)}: it is ${d.toFixed(1)} blocks away`;
    }
    case 'height':
      return observation.position.y >= e.atLeast
        ? null
        : `${describeExpectation(e)}: they are at y ${observation.position.y.toFixed(1)}`;
    case 'held':
      return observation.heldItem === e.item
        ? null
        : `${describeExpectation(e)}: it holds ${observation.heldItem ?? 'nothing'}`;
    case 'food':
      return observation.food >= e.atLeast ? null : `${describeExpectation(e)}: it is ${observation.food}`;
    case 'in_sight': {
      if (observation.found === undefined) return `${describeExpectation(e)}: blocks were not searched for`;
      if (observation.found === null) return `${describeExpectation(e)}: none is`;
      return distance(observation.found, observation.position) <= e.within + 1
        ? null
        : `${describeExpectation(e)}: the nearest is at ${at(observation.found)}`;
    }
    case 'container': {
      const contents = observation.containers?.[blockKey(e.at)];
      if (contents === undefined) return `${describeExpectation(e)}: the container was not observed`;
      if (contents === null) return `${describeExpectation(e)}: no container stands there`;
      const count = contents[e.item] ?? 0;
      if ((e.atLeast === undefined || count >= e.atLeast) && (e.atMost === undefined || count <= e.atMost)) return null;
      return `${describeExpectation(e)}: it holds ${count}`;
    }
    case 'no_entities': {
      if (!observation.entities) return `${describeExpectation(e)}: entities were not observed`;
      const around = e.around ?? observation.position;
      const inside = observation.entities.filter(
        (entity) =>
          e.names.includes(entity.name) &&
          Math.hypot(entity.position.x - around.x, entity.position.z - around.z) <= e.radius,
      );
      return inside.length === 0
        ? null
        : `${describeExpectation(e)}: ${inside.map((entity) => `a ${entity.name} (entity ${entity.id}) at ${at(roundPoint(entity.position))}`).join(', ')}`;
    }
    case 'block_state': {
      const state = observation.states?.[blockKey(e.at)];
      if (!state) return `${describeExpectation(e)}: its state was not observed`;
      const off = Object.entries(e.properties).filter(([key, value]) => state.properties[key] !== value);
      if (state.name === e.name && off.length === 0) return null;
      const shown = Object.entries(state.properties).map(([key, value]) => `${key}=${value}`);
      return `${describeExpectation(e)}: it is ${state.name}${shown.length > 0 ? ` (${shown.join(', ')})` : ''}`;
    }
    case 'daytime': {
      if (observation.timeOfDay === undefined) return `${describeExpectation(e)}: the time was not observed`;
      return isNight(observation.timeOfDay)
        ? `${describeExpectation(e)}: it is night (time ${observation.timeOfDay})`
        : null;
    }
    case 'near_entity': {
      if (!observation.entities) return `${describeExpectation(e)}: entities were not observed`;
      const entity = observation.entities.find((candidate) => candidate.id === e.id);
      if (!entity) return `${describeExpectation(e)}: it is dead or gone`;
      const d = distance(entity.position, observation.position);
      return d <= e.within ? null : `${describeExpectation(e)}: it is ${d.toFixed(1)} blocks away`;
    }
    case 'entity_gone': {
      if (!observation.entities) return `${describeExpectation(e)}: entities were not observed`;
      const alive = observation.entities.find((entity) => entity.id === e.id);
      return alive
        ? `${describeExpectation(e)}: it is alive at ${at(roundPoint(alive.position))}${alive.health === null ? '' : ` with health ${alive.health}`}`
        : null;
    }
    case 'no_drops': {
      if (!observation.drops) return `${describeExpectation(e)}: dropped items were not observed`;
      const left = observation.drops.filter(
        (d) => (e.item === undefined || d.name === e.item) && distance(d.position, e.around) <= e.radius,
      );
      if (left.length === 0) return null;
      const listed = left.slice(0, 3).map((d) => `${d.count} ${d.name} at ${at(roundPoint(d.position))}`);
      return `${describeExpectation(e)}: ${left.length} still there (${listed.join(', ')}${left.length > 3 ? ', …' : ''})`;
    }
  }
}

/** How many of `items` the pack holds, all together. */
export function inventoryTotal(inventory: Readonly<Record<string, number>>, items: readonly string[]): number {
  let total = 0;
  for (const item of new Set(items)) total += inventory[item] ?? 0;
  return total;
}

/** Every expectation that does not hold in the observation, as readable evidence. */
export function unmetExpectations(expectations: readonly Expectation[], observation: Observation): string[] {
  const unmet: string[] = [];
  for (const e of expectations) {
    const why = unmetExpectation(e, observation);
    if (why !== null) unmet.push(why);
  }
  return unmet;
}

/** The observation that can check these expectations: the cells they name, and dropped items where asked. */
export function queryFor(expectations: readonly Expectation[], base: ObservationQuery = {}): ObservationQuery {
  const blocks = [...(base.blocks ?? [])];
  let drops = base.drops;
  let find = base.find;
  const containers = [...(base.containers ?? [])];
  const states = [...(base.states ?? [])];
  let entities = base.entities;
  let time = base.time === true;
  for (const e of expectations) {
    if (e.kind === 'daytime') time = true;
    // Around a point that may be far from the bot: every living one of those names is reported, wherever it is.
    if (e.kind === 'no_entities')
      entities = {
        ...(entities?.ids ? { ids: entities.ids } : {}),
        names: [...new Set([...(entities?.names ?? []), ...e.names])],
      };
    if (e.kind === 'entity_gone' || e.kind === 'near_entity')
      entities = { ...entities, ids: [...new Set([...(entities?.ids ?? []), e.id])] };
    if (e.kind === 'block') blocks.push(e.at);
    if (e.kind === 'container') containers.push(e.at);
    if (e.kind === 'block_state') states.push(e.at);
    if (e.kind === 'in_sight')
      find = {
        ...find,
        names: [...new Set([...(find?.names ?? []), ...e.names])],
        within: Math.max(find?.within ?? 0, e.within),
      };
    if (e.kind === 'no_drops') drops = widest(drops, { around: e.around, radius: e.radius });
  }
  return {
    ...(blocks.length > 0 ? { blocks } : {}),
    ...(drops ? { drops } : {}),
    ...(find ? { find } : {}),
    ...(containers.length > 0 ? { containers } : {}),
    ...(entities ? { entities } : {}),
    ...(time ? { time } : {}),
    ...(states.length > 0 ? { states } : {}),
  };
}

function widest(
  a: ObservationQuery['drops'],
  b: NonNullable<ObservationQuery['drops']>,
): NonNullable<ObservationQuery['drops']> {
  if (!a) return b;
  const centre = a.around ?? b.around;
  if (!a.around || !b.around || !centre) return { radius: Math.max(a.radius, b.radius) };
  // One sphere around the first centre that covers both.
  return { around: a.around, radius: Math.max(a.radius, distance(a.around, b.around) + b.radius) };
}

function roundPoint(p: Vec3Like): Vec3Like {
  return { x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10, z: Math.round(p.z * 10) / 10 };
}
