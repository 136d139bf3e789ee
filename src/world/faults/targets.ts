/**
 * The WorldPort methods that act on the world, i.e. the ones a fault can target: the core ones and the optional ones (a
 * user's `native` actuator is theirs).
 */
export const ACTUATOR_METHODS = [
  'goto',
  'dig',
  'place',
  'craft',
  'equip',
  'consume',
  'move',
  'toss',
  'chat',
  'smelt',
  'deposit',
  'withdraw',
  'attack',
  'look',
  'sleep',
  'activate',
] as const;
export type ActuatorMethod = (typeof ACTUATOR_METHODS)[number];

/**
 * Which actuators each built-in verb drives, for a world that cannot tell which verb runs (through the executor, a
 * verb's fault hits whatever it calls).
 */
export const VERB_ACTUATORS: Readonly<Record<string, readonly ActuatorMethod[]>> = {
  navigate: ['goto'],
  dig_block: ['dig'],
  place_block: ['place'],
  craft_item: ['craft'],
  consume_food: ['consume'],
  equip: ['equip'],
  collect_drops: ['goto'],
  build_structure: ['place'],
  flee: ['goto'],
  pillar_up: ['place', 'move'],
  wall_in: ['place'],
  dig_in: ['dig', 'place'],
  leave_shelter: ['dig', 'move', 'place', 'goto'],
  collect_block: ['goto', 'dig', 'equip'],
  explore: ['goto'],
  smelt_item: ['goto', 'smelt'],
  store_items: ['goto', 'deposit'],
  take_items: ['goto', 'withdraw'],
  attack_entity: ['goto', 'attack'],
  follow_entity: ['goto', 'look'],
  guard_area: ['goto', 'look', 'attack'],
  sleep: ['goto', 'sleep'],
  activate_block: ['goto', 'activate'],
};

export function isActuatorMethod(name: string): name is ActuatorMethod {
  return (ACTUATOR_METHODS as readonly string[]).includes(name);
}
