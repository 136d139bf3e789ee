import type { TimerHandle } from '../contracts/clock.js';
import { distanceToGoal } from '../contracts/stands-on.js';
import { WorldError, type NavigationGoal, type UnstuckMove, type Vec3Like } from '../contracts/world.js';
import type { RunContext, TreeBindings } from '../registry/capability-spec.js';
import { BindingRegistry } from './binding-registry.js';

/**
 * Generic leaves over the WorldPort actuators, so a tree can be composed from
 * primitives: `action [goto, $goal]`, `action [dig, $position]`. Each passes the
 * node's signal to the actuator and goes through ctx.actuate (TTFA sees it).
 */

const UNSTUCK_MS = 400;

function vec(value: unknown, leaf: string): Vec3Like {
  const v = value as Partial<Vec3Like> | null;
  if (v && typeof v.x === 'number' && typeof v.y === 'number' && typeof v.z === 'number')
    return { x: v.x, y: v.y, z: v.z };
  throw new WorldError('schema_violation', `${leaf}: expected a position {x, y, z}, got ${JSON.stringify(value)}`);
}

function goal(value: unknown): NavigationGoal {
  const kind = (value as { kind?: unknown } | null)?.kind;
  if (kind === 'block' || kind === 'near' || kind === 'xz') return value as NavigationGoal;
  return { kind: 'block', ...vec(value, 'goto') };
}

function text(value: unknown, leaf: string, what: string): string {
  if (typeof value === 'string' && value.length > 0) return value;
  throw new WorldError('schema_violation', `${leaf}: expected ${what} as a string, got ${JSON.stringify(value)}`);
}

/** How often a walk reports the distance left: as often as the executor passes progress on. */
const WALK_REPORT_MS = 250;

/**
 * The distance to each goal when its first walk began, kept by the goal's object (a step's parsed `$target`, the
 * same across the step's walks and attempts), so every walk of a step counts the way closed from one start.
 */
const walkStarts = new WeakMap<object, number>();

/**
 * Reports the way closed toward the goal, in whole blocks of the distance at the first walk's start, with the
 * blocks left (shown, not judged: a way round an obstacle may lead away from the goal for longer than the progress
 * detector's limit), now and every 250 ms of the walk until it settles or is aborted (a walk that ignores its abort must
 * not keep a timer alive); the stop function reports once more and stops.
 */
function reportWalk(ctx: RunContext, goal: NavigationGoal, key: unknown): () => void {
  const left = () => Math.ceil(distanceToGoal(ctx.world.position(), goal));
  const remembered = typeof key === 'object' && key !== null ? walkStarts.get(key) : undefined;
  const start = remembered ?? left();
  if (remembered === undefined && typeof key === 'object' && key !== null) walkStarts.set(key, start);
  let timer: TimerHandle | null = null;
  const report = () => {
    const now = left();
    const detail = `${now} ${now === 1 ? 'block' : 'blocks'} left`;
    ctx.progress(Math.max(0, start - now), start, { unit: 'blocks of the way', detail, judged: false });
  };
  const tick = () => {
    report();
    timer = ctx.signal.aborted ? null : ctx.clock.setTimeout(tick, WALK_REPORT_MS);
  };
  tick();
  return () => {
    if (timer !== null) ctx.clock.clearTimeout(timer);
    timer = null;
    report();
  };
}

function move(kind: UnstuckMove) {
  return (ctx: RunContext) =>
    ctx.actuate(`move.${kind}`, () => ctx.world.move(kind, UNSTUCK_MS, { signal: ctx.signal }));
}

export const worldLeaves: TreeBindings = {
  actions: {
    /** Walks to the goal, reporting the distance left as progress (see reportWalk). */
    goto: async (ctx, target) => {
      const to = goal(target);
      const stop = reportWalk(ctx, to, target);
      try {
        await ctx.actuate('goto', () => ctx.world.goto(to, { signal: ctx.signal }));
      } finally {
        stop();
      }
    },
    goto_near: (ctx, target, range) => {
      const at = vec(target, 'goto_near');
      return ctx.actuate('goto', () =>
        ctx.world.goto({ kind: 'near', ...at, range: typeof range === 'number' ? range : 2 }, { signal: ctx.signal }),
      );
    },
    dig: (ctx, position) => ctx.actuate('dig', () => ctx.world.dig(vec(position, 'dig'), { signal: ctx.signal })),
    place: (ctx, position, item) =>
      ctx.actuate('place', () =>
        ctx.world.place(vec(position, 'place'), text(item, 'place', 'an item name'), { signal: ctx.signal }),
      ),
    unstuck_jump: move('jump'),
    unstuck_back: move('back'),
    unstuck_left: move('left'),
    unstuck_right: move('right'),
  },
  conditions: {
    connected: (ctx) => ctx.world.isConnected(),
  },
  arity: {
    goto: 1,
    goto_near: [1, 2],
    dig: 1,
    place: 2,
    unstuck_jump: 0,
    unstuck_back: 0,
    unstuck_left: 0,
    unstuck_right: 0,
    connected: 0,
  },
};

/** A registry holding the runtime's own world leaves; add each capability's bindings to it. */
export function createBindingRegistry(): BindingRegistry {
  return new BindingRegistry().register(worldLeaves, 'world');
}
