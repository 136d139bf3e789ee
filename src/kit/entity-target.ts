import type { LivingEntity, Observation, ObservationQuery } from '../contracts/index.js';

/** What attack_entity and follow_entity take to pick their entity. */
export interface EntityTargetArgs {
  target: { id: number } | { name: string };
  within: number;
}

/**
 * The entity a step means (the mob it fights, the one it follows): the one named by id, else the nearest of the kind at
 * dispatch. Kept per step (the executor hands one parsed-arguments object to every look at a step), so acceptance,
 * guard and the actions all mean the same entity.
 */
const chosen = new WeakMap<object, LivingEntity | null>();

export function targetQuery({ target, within }: EntityTargetArgs): ObservationQuery {
  return 'id' in target ? { entities: { ids: [target.id] } } : { entities: { names: [target.name], within } };
}

/** The step's mob as first seen (null when none was in sight at dispatch). */
export function targetOf(args: EntityTargetArgs, pre?: Observation): LivingEntity | null {
  if (!chosen.has(args) && pre) {
    const { target } = args;
    const candidates = (pre.entities ?? []).filter((entity) =>
      'id' in target ? entity.id === target.id : entity.name === target.name,
    );
    const distance = (entity: LivingEntity) =>
      Math.hypot(
        entity.position.x - pre.position.x,
        entity.position.y - pre.position.y,
        entity.position.z - pre.position.z,
      );
    chosen.set(args, candidates.sort((a, b) => distance(a) - distance(b))[0] ?? null);
  }
  return chosen.get(args) ?? null;
}

export const describeTarget = ({ target }: EntityTargetArgs) => ('id' in target ? `entity ${target.id}` : target.name);
