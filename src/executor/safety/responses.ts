import type { Choice } from './observation.js';

/** A capability the safety layer runs as a repair of the step it took over, and why. */
export interface FastPathStep {
  verb: string;
  args: Record<string, unknown>;
  /** What the assessment said, for the `safety.emergency` event; the signal's detail when absent. */
  reason?: string;
  /** Run first, their failures ignored (the weapon to hold for a fight: bare hands still fight). */
  before?: FastPathStep[];
  /** Run after it in order, each only once the one before ended ok (a hunt: the kill, then the drops, then the meal). */
  then?: FastPathStep[];
  /**
   * As one of `then`: its refusal or failure does not end the chain, the next one's guard judges (a hunt's drops may be
   * picked up in the fight already, or while collect_drops walks to them: the meal after is what counts).
   */
  optional?: true;
}

/** How far a fight follows its mob before giving up (attack_entity's `within`): a chaser's reach, not farther. */
const FIGHT_WITHIN = 24;

/**
 * The capability for each choice: a fight is attack_entity at the chosen mob (its id, so the most dangerous one, not
 * the nearest) with the best weapon equipped first; a flight is flee from the point the assessment chose (away from
 * every hostile known, assess.ts flightFrom), striking back at what keeps pace with it with the fight's weapon drawn
 * first; a shelter its verb
 * (pillar_up, wall_in, dig_in); eating consume_food.
 */
export function responseFor(choice: Choice, held: string | null): FastPathStep {
  const { reason } = choice;
  switch (choice.kind) {
    case 'fight':
    case 'close_in': {
      const equip = equipFirst(choice.weapon, held);
      const args = {
        target: { id: choice.target.id },
        within: FIGHT_WITHIN,
        breakOffBelow: choice.breakOffBelow,
        judgedOn: choice.judgedOn,
        // A close-in that finds no way up to its archer ends at once: it is not walked at again under its arrows.
        ...(choice.kind === 'close_in' ? { giveUpUnreachable: true } : {}),
      };
      return {
        verb: 'attack_entity',
        args,
        reason: `${choice.kind === 'fight' ? 'fight: ' : ''}${reason}`,
        ...(equip ? { before: equip } : {}),
      };
    }
    case 'flee': {
      const strikes = choice.strikeBack.length > 0;
      const equip = strikes ? equipFirst(choice.weapon, held) : undefined;
      const args = {
        from: cell(choice.from),
        clearOf: choice.clearOf,
        distance: choice.distance,
        ...(strikes ? { strikeBack: choice.strikeBack } : {}),
        ...(choice.breakOffBelow > 0 ? { breakOffBelow: choice.breakOffBelow } : {}),
        judgedOn: choice.judgedOn,
      };
      return { verb: 'flee', args, reason, ...(equip ? { before: equip } : {}) };
    }
    case 'shelter':
      return { verb: choice.verb, args: choice.height !== undefined ? { height: choice.height } : {}, reason };
    case 'eat':
      return { verb: 'consume_food', args: { item: choice.food }, reason };
  }
}

/** The step that draws the weapon, unless it is already in hand (or there is none). */
function equipFirst(weapon: string | null, held: string | null): FastPathStep[] | undefined {
  return weapon && weapon !== held ? [{ verb: 'equip', args: { item: weapon } }] : undefined;
}

export function cell(position: { x: number; y: number; z: number }) {
  return { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
}
