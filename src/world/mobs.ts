import minecraftData from 'minecraft-data';
import type { EntityKind } from '../contracts/world.js';
import { MINECRAFT_VERSION } from './recipes.js';

const data = minecraftData(MINECRAFT_VERSION);

/** The mobs a scenario may place: minecraft-data's hostile and passive (animal, water, ambient) ones. */
export const MOB_NAMES: readonly string[] = data.entitiesArray
  .filter((e) => mobKind(e.name) !== null)
  .map((e) => e.name);

/** A mob's kind as both worlds report it (hostile or passive), or null for what is no mob. */
export function mobKind(name: string): Extract<EntityKind, 'hostile' | 'passive'> | null {
  return kindOfEntityType(data.entitiesByName[name]?.type);
}

/** minecraft-data's (and prismarine-entity's) entity type as a mob's kind: hostile, passive, or null for no mob. */
export function kindOfEntityType(type: string | undefined): Extract<EntityKind, 'hostile' | 'passive'> | null {
  switch (type) {
    case 'hostile':
      return 'hostile';
    case 'animal':
    case 'passive':
    case 'water_creature':
    case 'ambient':
      return 'passive';
    default:
      return null;
  }
}

/** The hostile mobs: what a guard watches for and a bed refuses to be slept in near. */
export const HOSTILE_MOBS: readonly string[] = MOB_NAMES.filter((name) => mobKind(name) === 'hostile');
