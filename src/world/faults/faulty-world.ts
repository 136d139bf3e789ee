import type { Clock } from '../../contracts/clock.js';
import type {
  BlockQuery,
  ActuatorOptions,
  BlockInfo,
  BodyPart,
  EntityInfo,
  EntityKind,
  NavigationGoal,
  Observation,
  ObservationQuery,
  Recipe,
  UnstuckMove,
  Vec3Like,
  WorldPort,
} from '../../contracts/world.js';
import { deriveSeed, mulberry32, type Random } from '../../random.js';
import type { FaultKind } from './fault.js';
import { runFaulted } from './inject.js';
import { type FaultRule, FaultSpecError } from './parse.js';
import { ACTUATOR_METHODS, type ActuatorMethod } from './targets.js';

export interface WorldFaultOptions {
  clock: Clock;
  seed?: number;
  /**
   * The verb whose step is running now. When given, verb rules apply only while
   * their verb runs (so `navigate=hang` leaves flee's goto alone); without it a
   * verb rule applies to every call of the actuators the verb uses.
   */
  activeVerb?: () => string | undefined;
}

export interface Injection {
  at: number;
  method: ActuatorMethod;
  rule: string;
  fault: FaultKind;
}

interface ArmedRule {
  rule: FaultRule;
  random: Random;
  window: { endsAt: number | null };
}

/** A WorldPort that behaves like the one it wraps, except where a fault rule says otherwise. */
export class FaultyWorld implements WorldPort {
  /** Every call a fault actually took effect on, in order. */
  readonly injections: Injection[] = [];
  private readonly armed: ArmedRule[];
  // The optional actuators, present when the wrapped world has them; faults reach them as they reach the core ones.
  readonly toss?: WorldPort['toss'];
  readonly chat?: WorldPort['chat'];
  readonly smelt?: WorldPort['smelt'];
  readonly deposit?: WorldPort['deposit'];
  readonly withdraw?: WorldPort['withdraw'];
  readonly attack?: WorldPort['attack'];
  readonly look?: WorldPort['look'];
  readonly sleep?: WorldPort['sleep'];
  readonly activate?: WorldPort['activate'];
  readonly native?: WorldPort['native'];

  /** The inner world's air, when it tracks it (an observation: no fault applies). */
  readonly air?: () => number;
  /** The inner world's worn armour, when it models it (an observation: no fault applies). */
  readonly worn?: () => string[];

  constructor(
    readonly inner: WorldPort,
    rules: readonly FaultRule[],
    private readonly options: WorldFaultOptions,
  ) {
    if (inner.air) this.air = () => inner.air!();
    if (inner.worn) this.worn = () => inner.worn!();
    this.armed = rules.map((rule) => ({
      rule,
      random: mulberry32(deriveSeed(options.seed ?? 1, rule.spec)),
      window: { endsAt: null },
    }));
    // eslint-disable-next-line @typescript-eslint/unbound-method -- each is called below with .call(inner)
    const { toss, chat, smelt, deposit, withdraw, attack, look, sleep, activate } = inner;
    const signalled = (options: ActuatorOptions | undefined, signal: AbortSignal | undefined) => ({
      ...options,
      ...(signal ? { signal } : {}),
    });
    if (toss)
      this.toss = (item, count, options) =>
        this.act('toss', options, (signal) => toss.call(inner, item, count, signalled(options, signal)));
    if (chat)
      this.chat = (message, options) =>
        this.act('chat', options, (signal) => chat.call(inner, message, signalled(options, signal)));
    if (smelt)
      this.smelt = (furnace, input, count, fuel, options) =>
        this.act('smelt', options, (signal) =>
          smelt.call(inner, furnace, input, count, fuel, signalled(options, signal)),
        );
    if (deposit)
      this.deposit = (container, item, count, options) =>
        this.act('deposit', options, (signal) =>
          deposit.call(inner, container, item, count, signalled(options, signal)),
        );
    if (withdraw)
      this.withdraw = (container, item, count, options) =>
        this.act('withdraw', options, (signal) =>
          withdraw.call(inner, container, item, count, signalled(options, signal)),
        );
    if (attack)
      this.attack = (entityId, options) =>
        this.act('attack', options, (signal) => attack.call(inner, entityId, signalled(options, signal)));
    if (sleep)
      this.sleep = (bed, options) =>
        this.act('sleep', options, (signal) => sleep.call(inner, bed, signalled(options, signal)));
    if (activate)
      this.activate = (block, options) =>
        this.act('activate', options, (signal) => activate.call(inner, block, signalled(options, signal)));
    if (look)
      this.look = (at, options) =>
        this.act('look', options, (signal) => look.call(inner, at, signalled(options, signal)));
    if (inner.native) this.native = inner.native.bind(inner);
  }

  get kind(): string {
    return this.inner.kind;
  }
  get events(): WorldPort['events'] {
    return this.inner.events;
  }
  isConnected(): boolean {
    return this.inner.isConnected();
  }
  position(): Vec3Like {
    return this.inner.position();
  }
  health(): number {
    return this.inner.health();
  }
  food(): number {
    return this.inner.food();
  }
  inventory(): Record<string, number> {
    return this.inner.inventory();
  }
  heldItem(): string | null {
    return this.inner.heldItem();
  }
  blockAt(position: Vec3Like): BlockInfo | null {
    return this.inner.blockAt(position);
  }
  findBlocks(query: BlockQuery): Vec3Like[] {
    return this.inner.findBlocks(query);
  }
  entities(kinds?: readonly EntityKind[]): EntityInfo[] {
    return this.inner.entities(kinds);
  }
  recipe(item: string): Recipe | null {
    return this.inner.recipe(item);
  }
  observe(query?: ObservationQuery): Promise<Observation> {
    return this.inner.observe(query);
  }
  stopMovement(): void {
    this.inner.stopMovement();
  }
  close(): Promise<void> {
    return this.inner.close();
  }

  goto(goal: NavigationGoal, options?: ActuatorOptions): Promise<void> {
    return this.act('goto', options, (signal) => this.inner.goto(goal, { ...options, signal }));
  }
  dig(position: Vec3Like, options?: ActuatorOptions): Promise<void> {
    return this.act('dig', options, (signal) => this.inner.dig(position, { ...options, signal }));
  }
  place(position: Vec3Like, item: string, options?: ActuatorOptions): Promise<void> {
    return this.act('place', options, (signal) => this.inner.place(position, item, { ...options, signal }));
  }
  craft(item: string, times: number, options?: ActuatorOptions & { table?: Vec3Like | null }): Promise<void> {
    return this.act('craft', options, (signal) => this.inner.craft(item, times, { ...options, signal }));
  }
  equip(item: string, destination: BodyPart, options?: ActuatorOptions): Promise<void> {
    return this.act('equip', options, (signal) => this.inner.equip(item, destination, { ...options, signal }));
  }
  consume(item: string, options?: ActuatorOptions): Promise<void> {
    return this.act('consume', options, (signal) => this.inner.consume(item, { ...options, signal }));
  }
  move(move: UnstuckMove, durationMs: number, options?: ActuatorOptions): Promise<void> {
    return this.act('move', options, (signal) => this.inner.move(move, durationMs, { ...options, signal }));
  }

  private act(
    method: ActuatorMethod,
    options: ActuatorOptions | undefined,
    invoke: (signal: AbortSignal | undefined) => Promise<void>,
  ): Promise<void> {
    const armed = this.ruleFor(method);
    if (!armed) return invoke(options?.signal);
    const { clock } = this.options;
    const { rule } = armed;
    return runFaulted(
      rule.fault,
      {
        label: `${method} (${rule.spec})`,
        signal: options?.signal,
        clock,
        random: armed.random,
        invoke,
        noEffect: undefined,
        window: armed.window,
      },
      () => this.injections.push({ at: clock.now(), method, rule: rule.spec, fault: rule.fault.kind }),
    );
  }

  /**
   * The rule that hits this call. With the running verb known, a verb rule hits every actuator that
   * verb calls while it runs, whichever they are (collect_block's goto and dig, a user's verb's own):
   * a table of the actuators each verb uses went stale with every new verb, and a fault on one missing
   * from it was silently ignored. Without it, a verb rule hits the actuators its verb is known to use.
   */
  private ruleFor(method: ActuatorMethod): ArmedRule | undefined {
    const verb = this.options.activeVerb?.();
    return this.armed.find(({ rule }) => {
      if (rule.targetKind === 'actuator') return rule.actuators.includes(method);
      return this.options.activeVerb === undefined ? rule.actuators.includes(method) : rule.target === verb;
    });
  }
}

/**
 * Wraps any world so the given rules' faults hit its actuators; rules that need a runner (never_actuates) are ignored
 * here.
 */
export function injectWorldFaults(
  world: WorldPort,
  rules: readonly FaultRule[],
  options: WorldFaultOptions,
): FaultyWorld {
  if (options.activeVerb === undefined) {
    const blind = rules.find(
      (rule) => rule.targetKind === 'verb' && rule.actuators.length === 0 && rule.fault.kind !== 'never_actuates',
    );
    if (blind) {
      throw new FaultSpecError(
        blind.spec,
        `the world cannot tell when ${blind.target} runs: inject it through the executor (verbtree run --fault, or assembleExecutor's faults), or aim it at an actuator (${ACTUATOR_METHODS.join(', ')})`,
      );
    }
  }
  return new FaultyWorld(
    world,
    rules.filter((rule) => rule.fault.kind !== 'never_actuates'),
    options,
  );
}
