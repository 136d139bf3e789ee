import type { EntityInfo, Vec3Like } from '../../contracts/world.js';
import { chooseFood } from '../../kit/foods.js';
import { MAX_FOOD } from '../../world/health-rules.js';
import { MOB_LOOT } from '../../world/mob-rules/index.js';
import { mobKind } from '../../world/mobs.js';
import type { FastPathStep } from './responses.js';

/** How far (blocks) a hungry bot goes for an animal: a short walk, not an expedition. */
export const HUNT_RADIUS = 24;
/** No hunt while a hostile is this close (blocks) to the bot or to its quarry: the encounter's own radius. */
export const HUNT_CLEAR = 16;
/** How far around the kill the drops are looked for (a knocked-back mob dies a few blocks off where it was struck). */
const DROPS_RADIUS = 8;

/**
 * The animals worth hunting for food: those whose loot always holds a food consume_food eats unasked (a cow's beef, a
 * pig's porkchop, a sheep's mutton; not a chicken, whose raw meat may poison and is never eaten unasked).
 */
export const PREY: ReadonlySet<string> = new Set(
  Object.entries(MOB_LOOT)
    .filter(([name, loot]) => mobKind(name) === 'passive' && loot.some((e) => e.min >= 1 && eatsUnasked(e.item)))
    .map(([name]) => name),
);

function eatsUnasked(item: string): boolean {
  return chooseFood({ [item]: 1 }, 0) === item;
}

/** What the hunt is judged from: the bot's hunger and pack, where it stands, and the entities it sees. */
export interface HuntSight {
  food: number;
  position: Vec3Like;
  inventory: Readonly<Record<string, number>>;
  entities: readonly EntityInfo[];
  /** Why the bot needs food, e.g. "hungry 4 of 20" or "health 5 of 20, too hungry to heal (food 10 of 20)". */
  need: string;
}

export type HuntChoice =
  | { kind: 'eat'; reason: string }
  | { kind: 'hunt'; prey: EntityInfo; distance: number; reason: string }
  | { kind: 'none'; reason: string };

/**
 * A bot that needs food: eat what the pack holds; with nothing to eat, hunt the nearest prey within HUNT_RADIUS when
 * no hostile is within HUNT_CLEAR of the bot or of it; else nothing can be done, and the reason says what is missing.
 * A pure function of what the bot sees.
 */
export function chooseHunt(sight: HuntSight): HuntChoice {
  if (chooseFood(sight.inventory, sight.food) !== null) return { kind: 'eat', reason: `${sight.need}; eat` };
  const hungry = `${sight.need}, nothing to eat`;
  const from = (e: EntityInfo, at: Vec3Like) =>
    Math.hypot(e.position.x - at.x, e.position.y - at.y, e.position.z - at.z);
  const prey = sight.entities
    .filter((e) => e.kind === 'passive' && PREY.has(e.name))
    .map((e) => ({ entity: e, distance: from(e, sight.position) }))
    .filter((p) => p.distance <= HUNT_RADIUS)
    .sort((a, b) => a.distance - b.distance || a.entity.id - b.entity.id)[0];
  if (!prey) return { kind: 'none', reason: `${hungry}, no animal within ${HUNT_RADIUS} blocks to hunt` };
  const quarry = `${prey.entity.name} ${prey.distance.toFixed(0)} blocks off`;
  const hostile = sight.entities.find(
    (e) =>
      e.kind === 'hostile' && (from(e, sight.position) <= HUNT_CLEAR || from(e, prey.entity.position) <= HUNT_CLEAR),
  );
  if (hostile) return { kind: 'none', reason: `${hungry}, ${quarry}, but a ${hostile.name} is about: no hunt` };
  return { kind: 'hunt', prey: prey.entity, distance: prey.distance, reason: `hunt: ${hungry}, ${quarry}` };
}

/** "hungry 4 of 20": the bot's food as a hunt's reason names it. */
export function hungerOf(food: number): string {
  return `hungry ${food} of ${MAX_FOOD}`;
}

/**
 * The hunt as one repair: kill the animal (attack_entity, by its id), then pick up what it dropped (collect_drops,
 * optional: on the server a bot fighting beside the corpse picks its loot up as it falls, and collect_drops then finds
 * nothing), then eat (consume_food, whose guard judges whether the pack holds the meal).
 */
export function huntResponse(choice: Extract<HuntChoice, { kind: 'hunt' }>): FastPathStep {
  return {
    verb: 'attack_entity',
    args: { target: { id: choice.prey.id }, within: HUNT_RADIUS },
    reason: choice.reason,
    then: [
      { verb: 'collect_drops', args: { radius: DROPS_RADIUS }, optional: true },
      { verb: 'consume_food', args: {} },
    ],
  };
}
