import type { SafetyOverride } from '../../contracts/plan-step.js';
import { type EntityInfo, type EntityKind, isNight, type Vec3Like, type WorldPort } from '../../contracts/world.js';
import { chooseFood } from '../../kit/foods.js';
import { healsByItself, MAX_FOOD } from '../../world/health-rules.js';
import { describeHazardAt, nearestSafeCell } from '../../world/hazards.js';
import { type BowAttack, HOSTILE_STATS, type MobTerrain, lineOfSight } from '../../world/mob-rules/index.js';
import { EYE_HEIGHT } from '../../world/reach.js';
import type { ExecutorPolicy } from '../policy.js';
import { assess } from './assess.js';
import type { Assessment, CombatSettings } from './observation.js';
import { ASSESS_RADIUS, observeEncounter, type ObservedLately, weaponStats } from './encounter.js';
import { chooseHunt, hungerOf, huntResponse } from './hunt.js';
import { cell, type FastPathStep, responseFor } from './responses.js';
import { fitsHere, PILLAR_HEIGHT, pillarPassedBy, shelterVerbs } from './shelters.js';
import { DefenseTally } from './tally.js';

export type { FastPathStep } from './responses.js';

/** A threat that preempts goal work (safety > goal), with the fast-path capabilities to try, in order. */
export interface SafetySignal {
  signal: 'hazard' | 'hostile' | 'low_health' | 'hunger';
  detail: string;
  responses: FastPathStep[];
  /** For a hostile: the judgment the responses come from. */
  assessment?: Assessment;
}

const SAFETY_SIGNALS: ReadonlySet<string> = new Set<SafetySignal['signal']>([
  'hazard',
  'hostile',
  'low_health',
  'hunger',
]);

/** Whether an interrupt's signal is the safety monitor's (not an urgent intent's or a pause's). */
export function isSafetySignal(signal: string): boolean {
  return SAFETY_SIGNALS.has(signal);
}

/** What a check is asked about the running step. */
export interface CheckOptions {
  /** The running step is a fight: a hostile nearby is no signal; the others still are. */
  ignoreHostiles?: boolean;
  /** The plan's or the step's combat policy, over the executor's. */
  combat?: SafetyOverride;
}

const COOLDOWN_MS = 5_000;
/** Checks further apart than this (a defence ran, the step was paused) find the last reading of the world too old. */
const WATCH_GAP_MS = 1_000;
/** How often a signal with nothing to run is told again (a hungry bot with nothing to eat looks for prey this often). */
const UNANSWERED_QUIET_MS = 30_000;
/** How far (blocks, horizontally) the way out of a hazard looks for a cell to stand unhurt. */
const ESCAPE_RADIUS = 4;
/** The kinds safety judges: hostiles (the threats) and animals (a hunt's prey); never players, never drops. */
const JUDGED_KINDS: readonly EntityKind[] = ['hostile', 'passive'];

/** Checks the world each tick for the configured safety signals; cheap, and quiet for a while after each one. */
export class SafetyMonitor {
  private quietUntil = -Infinity;
  /** A signal with nothing to run is told again only after this (UNANSWERED_QUIET_MS). */
  private unansweredUntil = -Infinity;
  /** What each step's defences met and killed, for the failure that names what beat it. */
  readonly tally = new DefenseTally();
  /** The last observation's mob health and time of day; refreshed while hostiles are about or the bot is weak (see refresh). */
  private lately: ObservedLately = { health: new Map() };
  private refreshing: Promise<void> | null = null;
  /** Whether `lately` holds a reading of the time (absent in it then: the world does not say). */
  private timeRead = false;
  /** The last check's time: a longer gap than WATCH_GAP_MS since (a defence, a pause) makes the time read old. */
  private lastCheckAt = -Infinity;
  /** Bumped when the time read is forgotten: a reading started before lands nowhere. */
  private readings = 0;
  /** The mobs a close-in failed to reach, until no hostile is about: the encounter they belong to is over then. */
  private readonly unreachableIds = new Set<number>();

  constructor(
    private readonly policy: ExecutorPolicy['safety'],
    private readonly world: WorldPort,
  ) {}

  check(now: number, options: CheckOptions = {}): SafetySignal | null {
    if (!this.policy.enabled) return null;
    // One look at the entities a check, for the reading and the detection both, and only at the kinds safety judges:
    // it runs every tick of every bot's step, and a bot in a crowd sees every other bot (issue 34, §2).
    const entities = this.world.entities(JUDGED_KINDS);
    if (this.lastCheckAt !== -Infinity && now - this.lastCheckAt > WATCH_GAP_MS) this.forgetTime();
    this.lastCheckAt = now;
    this.startRefresh(entities);
    if (now < this.quietUntil) return null;
    const signal = this.detect(options, entities);
    if (signal && signal.responses.length === 0) {
      // Nothing to run (a hunger with nothing to eat and nothing to hunt): told now and then, no quiet for the others.
      if (now < this.unansweredUntil) return null;
      this.unansweredUntil = now + UNANSWERED_QUIET_MS;
    } else if (signal) this.quietUntil = now + COOLDOWN_MS;
    return signal;
  }

  /**
   * After a defence, before the step resumes: a hostile still able to reach the bot (a chaser still close, the next
   * zombie of a crowd) is answered first, whatever the cooldown.
   */
  threatRemaining(options: CheckOptions = {}): SafetySignal | null {
    if (!this.policy.enabled) return null;
    const at = this.world.position();
    return this.hazardHere() ? null : this.hostileSignal(at, options);
  }

  /**
   * Walkers (no bow) within twice hostileRadius, horizontally: those that would reach the bot if it left its shelter.
   */
  walkersBelow(): { id: number; name: string }[] {
    const at = this.world.position();
    return this.world
      .entities(['hostile'])
      .filter(
        (e) =>
          e.kind === 'hostile' &&
          !HOSTILE_STATS[e.name]?.bow &&
          Math.hypot(e.position.x - at.x, e.position.z - at.z) <= 2 * this.policy.hostileRadius,
      );
  }

  /**
   * The hostiles that keep a sheltered bot in: the walkers below, and any archer within its bow's range (in sight or
   * not: a bot that comes out steps into its sight; in a night's run one shot a bot climbing out of its hole).
   */
  keepingInShelter(): { id: number; name: string }[] {
    const at = this.world.position();
    const archers = this.world.entities(['hostile']).filter((e) => {
      const bow = e.kind === 'hostile' ? HOSTILE_STATS[e.name]?.bow : undefined;
      return (
        bow !== undefined && Math.hypot(e.position.x - at.x, e.position.y - at.y, e.position.z - at.z) <= bow.range
      );
    });
    return [...this.walkersBelow(), ...archers];
  }

  /**
   * A close-in on this mob ended without reaching it: the rest of the encounter is judged with no melee against it
   * (in world 1 of a night's tech-tree run a skeleton on a ledge was walked at three times under its arrows).
   */
  unreachable(id: number): void {
    this.unreachableIds.add(id);
  }

  /**
   * Reads the hostiles' health and the time of day from the world's truth (an observation), for the next assessment,
   * and the time of day alone while the bot is below minHealth (whether a weak bot shelters for the night). The check
   * is synchronous, so it judges by the last reading: a mob's health only falls between readings (nothing here heals),
   * so a stale one overrates the mob, never underrates it.
   */
  async refresh(entities: readonly EntityInfo[] = this.world.entities(JUDGED_KINDS)): Promise<void> {
    const at = this.world.position();
    const ids = entities
      .filter((e) => e.kind === 'hostile' && Math.hypot(e.position.x - at.x, e.position.z - at.z) <= ASSESS_RADIUS)
      .map((e) => e.id);
    if (ids.length === 0) this.unreachableIds.clear();
    if (ids.length === 0 && !this.weak()) {
      // Nothing here reads it until a hostile comes or the bot is weak: a reading kept from then could be a night ago.
      this.forgetTime();
      return;
    }
    const readings = this.readings;
    const seen = await this.world.observe({ ...(ids.length > 0 ? { entities: { ids } } : {}), time: true });
    if (readings !== this.readings) return;
    this.timeRead = true;
    const health = new Map((seen.entities ?? []).map((e) => [e.id, e.health] as const));
    this.lately = { health, ...(seen.timeOfDay !== undefined ? { timeOfDay: seen.timeOfDay } : {}) };
  }

  /**
   * Drops the time the last reading said (a mob's health it keeps: that only falls, so an old one overrates the mob).
   * Out of a shelter waited in until the dawn, the first check read the night from the reading before the wait, and a
   * weak bot dug in again by day.
   */
  private forgetTime(): void {
    this.lately = { health: this.lately.health };
    this.timeRead = false;
    this.readings++;
  }

  /** One reading at a time, started by each check; a failed reading leaves the last one in place. */
  private startRefresh(entities: readonly EntityInfo[]): void {
    if (this.refreshing) return;
    this.refreshing = this.refresh(entities)
      .catch(() => undefined)
      .finally(() => (this.refreshing = null));
  }

  /** The combat policy in force: the step's or the plan's override over the executor's. */
  settings(override: SafetyOverride = {}): CombatSettings {
    return {
      combat: override.combat ?? this.policy.combat,
      fightHealthFloor: override.fightHealthFloor ?? this.policy.fightHealthFloor,
    };
  }

  private detect(options: CheckOptions, entities: readonly EntityInfo[]): SafetySignal | null {
    const { world, policy } = this;
    const at = world.position();
    const hazard = this.hazardHere();
    if (hazard) return { signal: 'hazard', detail: hazard, responses: this.waysOut(at) };
    const hostile = options.ignoreHostiles === true ? null : this.hostileSignal(at, options, entities);
    if (hostile) return hostile;
    if (this.weak() && this.canHeal()) {
      const pillar = this.pillarHolds(at) ? [{ verb: 'pillar_up', args: { height: PILLAR_HEIGHT } }] : [];
      // With no food and no pillar (no blocks, or an archer about), the hole: it keeps out arrows and blows while the
      // health comes back (on the embedded server a bot at 3.6 with neither went on, and died).
      return {
        signal: 'low_health',
        detail: `health ${world.health()} below ${policy.minHealth}`,
        responses: [{ verb: 'consume_food', args: {} }, ...pillar, { verb: 'dig_in', args: {} }],
      };
    }
    const nightShelter = this.weak() && this.dark() ? this.nightShelterSignal() : null;
    if (nightShelter) return nightShelter;
    // Weak, unable to heal, the time not read yet (the reading started with this check): a hunt waits a tick for it.
    if (this.weak() && !this.timeRead) return null;
    return this.hungerSignal(entities);
  }

  private weak(): boolean {
    return this.world.health() < this.policy.minHealth;
  }

  /** Night, by the last reading of the time (refresh reads it while the bot is weak). */
  private dark(): boolean {
    const time = this.lately.timeOfDay;
    return time !== undefined && isNight(time);
  }

  /**
   * Weak at night with no way to heal (too hungry, nothing to eat): no hunt or walk in the dark, where any hostile met
   * is a flight at a few health; the bot shelters and waits for the day, then hunts by daylight. The hole first (closed
   * over the head: no spider climbs in, no arrow reaches it, for the whole night), then whatever else the pack and
   * the ground build here (shelters.ts); null when nothing can be built (the hunt's rules then, as before). On the
   * server's tech-tree world 4 (2026-12-07) a bot at 5 health hunted a sheep 17 blocks off at night, then went on with
   * its plan, fled a zombie at 1 and died.
   */
  private nightShelterSignal(): SafetySignal | null {
    const { world, policy } = this;
    const seen = observeEncounter(world, policy.hostileRadius, this.lately);
    const verbs = shelterVerbs(seen, []).sort((a, b) => Number(b === 'dig_in') - Number(a === 'dig_in'));
    if (verbs.length === 0) return null;
    return {
      signal: 'low_health',
      detail: `health ${world.health()} below ${policy.minHealth} at night, too hungry to heal (food ${world.food()} of ${MAX_FOOD}) with nothing to eat: shelter until day`,
      responses: verbs.map((verb) => ({ verb, args: verb === 'pillar_up' ? { height: PILLAR_HEIGHT } : {} })),
    };
  }

  /**
   * Hungry (food below minFood), or low on health it cannot heal because it is too hungry and has nothing to eat: the
   * bot eats what it has, else hunts the nearest animal worth it when no hostile is about (hunt.ts), else the signal
   * says what is missing and offers nothing to run (a consume_food with nothing to eat cannot succeed). Before hunts,
   * a bot with no food stayed hungry all day: on the server's tech-tree world 8 it ended at 5 health.
   */
  private hungerSignal(entities: readonly EntityInfo[]): SafetySignal | null {
    const { world, policy } = this;
    const food = world.food();
    const health = world.health();
    const hungry = food < policy.minFood;
    if (!hungry && !(health < policy.minHealth && !healsByItself(food))) return null;
    const need = hungry ? hungerOf(food) : `health ${health} of 20, too hungry to heal (food ${food} of ${MAX_FOOD})`;
    const choice = chooseHunt({ food, position: world.position(), inventory: world.inventory(), entities, need });
    const responses: FastPathStep[] =
      choice.kind === 'eat'
        ? [{ verb: 'consume_food', args: {} }]
        : choice.kind === 'hunt'
          ? [huntResponse(choice)]
          : [];
    return { signal: 'hunger', detail: choice.reason, responses };
  }

  /**
   * Whether a shelter or a meal would bring the health back: food in the pack, or enough food to heal by itself
   * (natural regeneration). Without either, a shelter heals nothing: on the embedded server (tech-tree world 7) a bot
   * at 4 health and too hungry to heal dug in, waited, came out and dug in again until its plan's escalations ran out,
   * by day with no hostile about. Its hostiles are still judged from that health (the hostile signal).
   */
  private canHeal(): boolean {
    const food = this.world.food();
    // A food consume_food eats unasked: rotten flesh (a zombie's loot) heals nobody who will not eat it.
    return healsByItself(food) || chooseFood(this.world.inventory(), food) !== null;
  }

  /**
   * A hostile close enough to act on, answered as the assessment of the whole encounter ranks it (fight, close in,
   * flee, shelter, eat); pillar_up is the last resort where it fits (not up its pillar already, with room to rise).
   */
  private hostileSignal(
    at: Vec3Like,
    options: CheckOptions,
    entities: readonly EntityInfo[] = this.world.entities(JUDGED_KINDS),
  ): SafetySignal | null {
    const nearest = this.nearestThreat(at, entities);
    if (!nearest) return null;
    const seen = observeEncounter(this.world, this.policy.hostileRadius, {
      ...this.lately,
      unreachable: this.unreachableIds,
    });
    const assessment = assess(seen, this.settings(options.combat), weaponStats);
    // Near, but unable to reach the bot (walkers below the pillar it stands on): nothing to answer.
    const [first] = assessment.choices;
    if (!first) return null;
    const held = this.world.heldItem();
    const responses = assessment.choices.map((choice) => responseFor(choice, held));
    // The last resort, unless the bot stands on its pillar already, has no room to rise, or a mob gets up it.
    if (
      fitsHere('pillar_up', seen.ground) &&
      !pillarPassedBy(seen.hostiles) &&
      !responses.some((r) => r.verb === 'pillar_up')
    )
      responses.push({ verb: 'pillar_up', args: { height: PILLAR_HEIGHT } });
    return { signal: 'hostile', detail: `${nearest.detail}; ${first.reason}`, responses, assessment };
  }

  /** Whether a pillar here would shelter the bot: no archer within its bow's range, no climber, about. */
  private pillarHolds(at: Vec3Like): boolean {
    const about = this.world
      .entities(['hostile'])
      .filter((e) => e.kind === 'hostile')
      .map((e) => ({
        name: e.name,
        distance: Math.hypot(e.position.x - at.x, e.position.y - at.y, e.position.z - at.z),
      }))
      .filter((h) => h.distance <= ASSESS_RADIUS);
    return pillarPassedBy(about) === null;
  }

  /**
   * The nearest hostile that can hurt the bot from where it is: any hostile within `hostileRadius` (a zombie's melee
   * is a step away), and an archer (a skeleton) within its bow's range with a line of sight from its eyes to the
   * bot's, the line its arrows fly along (src/world/mob-rules, the rules the embedded server's and SimWorld's mobs
   * shoot by). A skeleton behind a wall, or beyond its range, is no threat yet.
   */
  private nearestThreat(at: Vec3Like, entities: readonly EntityInfo[]): { entity: EntityInfo; detail: string } | null {
    const terrain: MobTerrain = { block: (x, y, z) => this.world.blockAt({ x, y, z })?.name ?? null };
    const eyes = { x: at.x, y: at.y + EYE_HEIGHT, z: at.z };
    let nearest: { entity: EntityInfo; distance: number; bow: BowAttack | null } | null = null;
    for (const entity of entities) {
      if (entity.kind !== 'hostile') continue;
      const distance = Math.hypot(entity.position.x - at.x, entity.position.y - at.y, entity.position.z - at.z);
      if (nearest && distance >= nearest.distance) continue;
      if (distance <= this.policy.hostileRadius) nearest = { entity, distance, bow: null };
      else {
        const stats = HOSTILE_STATS[entity.name];
        if (!stats?.bow || distance > stats.bow.range) continue;
        const from = { ...entity.position, y: entity.position.y + stats.eyeHeight };
        if (lineOfSight(terrain, from, eyes)) nearest = { entity, distance, bow: stats.bow };
      }
    }
    if (!nearest) return null;
    const away = `${nearest.entity.name} ${nearest.distance.toFixed(1)} blocks away`;
    const detail = nearest.bow ? `${away}, in its bow's range (${nearest.bow.range}) with a line of sight` : away;
    return { entity: nearest.entity, detail };
  }

  /**
   * What burns the bot where it stands, "in lava at 5,4,0", or null: for the
   * hazard signal, and for any failure that ends with the bot still there.
   */
  hazardHere(): string | null {
    const hazards = this.policy.hazardBlocks;
    return describeHazardAt(
      (p) => this.world.blockAt(p),
      this.world.position(),
      (name) => hazards.includes(name),
    );
  }

  /** Out of the hazard: walk to the nearest cell where the bot stands unhurt, else run from it. */
  private waysOut(at: Vec3Like): FastPathStep[] {
    const hazards = this.policy.hazardBlocks;
    const safe = nearestSafeCell(
      (p) => this.world.blockAt(p),
      at,
      ESCAPE_RADIUS,
      (name) => hazards.includes(name),
    );
    const flee: FastPathStep = { verb: 'flee', args: { from: cell(at), distance: 8 } };
    return safe ? [{ verb: 'navigate', args: { target: { kind: 'block', ...safe } } }, flee] : [flee];
  }
}
