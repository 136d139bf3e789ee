/**
 * The built-in capabilities (one per canonical verb) and the default registry that holds them.
 *
 * @module verbtree/capabilities
 */
import { type AnyCapabilitySpec, CapabilityRegistry } from 'verbtree';
import activateBlock from './activate_block/index.js';
import attackEntity from './attack_entity/index.js';
import buildStructure from './build_structure/index.js';
import collectBlock from './collect_block/index.js';
import collectDrops from './collect_drops/index.js';
import consumeFood from './consume_food/index.js';
import craftItem from './craft_item/index.js';
import digBlock from './dig_block/index.js';
import digIn from './dig_in/index.js';
import equip from './equip/index.js';
import explore from './explore/index.js';
import flee from './flee/index.js';
import followEntity from './follow_entity/index.js';
import guardArea from './guard_area/index.js';
import leaveShelter from './leave_shelter/index.js';
import navigate from './navigate/index.js';
import pillarUp from './pillar_up/index.js';
import placeBlock from './place_block/index.js';
import sleep from './sleep/index.js';
import smeltItem from './smelt_item/index.js';
import storeItems from './store_items/index.js';
import takeItems from './take_items/index.js';
import wallIn from './wall_in/index.js';

/** Every capability this build ships. Adding a verb means adding its folder and one line here. */
export const BUILTIN_CAPABILITIES = [
  navigate,
  digBlock,
  placeBlock,
  craftItem,
  smeltItem,
  storeItems,
  takeItems,
  attackEntity,
  followEntity,
  guardArea,
  sleep,
  activateBlock,
  consumeFood,
  collectDrops,
  collectBlock,
  explore,
  buildStructure,
  flee,
  pillarUp,
  wallIn,
  digIn,
  leaveShelter,
  equip,
] as const;

/** The same, as a plain list. A typed plan builder takes the tuple: planBuilder(BUILTIN_CAPABILITIES, ids). */
export const builtinCapabilities: AnyCapabilitySpec[] = [...BUILTIN_CAPABILITIES];

export function createDefaultRegistry(): CapabilityRegistry {
  const registry = new CapabilityRegistry();
  for (const spec of builtinCapabilities) registry.register(spec);
  return registry;
}
