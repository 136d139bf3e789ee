import { EventEmitter } from 'eventemitter3';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { WorldError, type WorldEvents, type WorldPort } from '../../src/contracts/world.js';
import { assembleExecutor } from '../../src/executor/assemble.js';
import type { ExecutorEvent, PlanResult } from '../../src/executor/events.js';
import { Rejoining, type Session } from '../../src/world/mineflayer/rejoining-world.js';
import { SimWorld } from '../../src/world/sim/index.js';

/*
 * A bot's world that outlives its connection, on SimWorlds and virtual time: each session is a SimWorld, the first
 * dropped as a server that goes away drops its players, the next one what a join gives once the server is back.
 */

const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 8, y: 0, z: 0, range: 1 } } };

/** A server that refuses `refusals` joins (it is still away), then lets the bot in again. */
function setUp(refusals: number) {
  const clock = new ManualClock();
  const first = SimWorld.create({ clock });
  let tries = 0;
  const back: SimWorld[] = [];
  const rejoins: { awayMs: number; tries: number }[] = [];
  const session = (world: SimWorld): Session => ({ world, close: () => Promise.resolve(world.close()) });
  const rejoining = new Rejoining(session(first), {
    clock,
    join: () => {
      tries++;
      if (tries <= refusals) return Promise.reject(new WorldError('world_disconnected', 'connection refused'));
      const world = SimWorld.create({ clock });
      back.push(world);
      return Promise.resolve(session(world));
    },
    onRejoined: (awayMs, n) => rejoins.push({ awayMs, tries: n }),
  });
  return { clock, first, back, rejoins, rejoining, tries: () => tries };
}

async function runWalk(setup: ReturnType<typeof setUp>, dropAtMs: number) {
  const { clock, rejoining, first } = setup;
  const assembly = await assembleExecutor({ registry: createDefaultRegistry(), world: rejoining.world, clock });
  const events: ExecutorEvent[] = [];
  assembly.executor.events.on('event', (event) => events.push(event));
  let result: PlanResult | undefined;
  void assembly.executor.run({ planId: 'p', intentId: 'i', steps: [walk] }).result.then((r) => (result = r));
  await clock.advance(dropAtMs);
  first.disconnect('the server closed');
  await clock.runUntil(() => result !== undefined, 120_000);
  return { result: result!, events };
}

describe('Rejoining: a world that outlives its connection', () => {
  it('while away it is disconnected, refuses reads of the dead session, and is back once a join succeeds', async () => {
    const setup = setUp(3);
    const { clock, first, rejoining, rejoins } = setup;
    const disconnects: string[] = [];
    rejoining.events.on('disconnected', (reason) => disconnects.push(reason));
    expect(rejoining.world.isConnected()).toBe(true);
    await clock.advance(100);
    first.disconnect('the server closed');
    expect(rejoining.world.isConnected()).toBe(false);
    expect(rejoining.disconnectedSince).toBe(100);
    expect(disconnects).toEqual(['the server closed']);
    const refused = await rejoining.world.observe().then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: 'world_disconnected' });
    await clock.runUntil(() => rejoining.world.isConnected(), 60_000);
    expect(rejoining.disconnectedSince).toBeNull();
    // Three refusals, then the fourth try: waits of 250, 500, 1000 and 2000 ms.
    expect(rejoins).toEqual([{ awayMs: 3750, tries: 4 }]);
    expect((await rejoining.world.observe()).position).toEqual(setup.back[0]!.position());
    await rejoining.close();
  });

  it('never joins again after another login of its name replaced the session: the name is another holder now', async () => {
    for (const reason of [
      'kicked: You logged in from another location',
      'kicked: {"translate":"multiplayer.disconnect.duplicate_login"}',
    ]) {
      const setup = setUp(0);
      const { clock, first, rejoining } = setup;
      const replaced: string[] = [];
      const lost: string[] = [];
      const again = new Rejoining(
        { world: first, close: () => Promise.resolve(first.close()) },
        {
          clock,
          join: () => Promise.reject(new Error('must not join again')),
          onReplaced: (why) => replaced.push(why),
          onLost: (why) => lost.push(why),
        },
      );
      first.disconnect(reason);
      await clock.advance(30_000);
      expect(replaced).toEqual([reason]);
      expect(lost).toEqual([]);
      expect(setup.tries()).toBe(0);
      expect(again.world.isConnected()).toBe(false);
      // Not waiting for a rejoin that will never come: a step fails world_disconnected at once.
      expect(again.world.reconnecting?.()).toBe(false);
      await again.close();
      await rejoining.close();
    }
  });

  it('a step whose bot loses its server mid-walk waits for the rejoin and ends verified, its retries unspent', async () => {
    const setup = setUp(4);
    const { result, events } = await runWalk(setup, 300);
    expect(result).toMatchObject({ ok: true });
    const retries = events.filter((e) => e.type === 'step.retry');
    expect(retries.map((e) => e.code)).toEqual(['world_disconnected']);
    expect(setup.rejoins).toHaveLength(1);
    expect(setup.back[0]!.position().x).toBeGreaterThan(6);
    await setup.rejoining.close();
  });

  it('a server that never comes back: the step waits until its deadline, then fails explicitly', async () => {
    const setup = setUp(Number.POSITIVE_INFINITY);
    const { result, events } = await runWalk(setup, 300);
    expect(result).toMatchObject({ ok: false, code: 'deadline_exceeded' });
    const started = events.find((e) => e.type === 'step.started');
    const ended = events.find((e) => e.type === 'step.ended');
    expect(started?.type === 'step.started' && ended?.type === 'step.ended').toBe(true);
    if (started?.type === 'step.started' && ended?.type === 'step.ended') expect(ended.at).toBe(started.deadlineAt);
    expect(setup.tries()).toBeGreaterThan(3);
    await setup.rejoining.close();
  });

  it('a world that is down for good (no rejoining) fails the step at once as world_disconnected, with no wait', async () => {
    const clock = new ManualClock();
    const world = SimWorld.create({ clock });
    const assembly = await assembleExecutor({ registry: createDefaultRegistry(), world, clock });
    const events: ExecutorEvent[] = [];
    assembly.executor.events.on('event', (event) => events.push(event));
    let result: PlanResult | undefined;
    void assembly.executor.run({ planId: 'p', intentId: 'i', steps: [walk] }).result.then((r) => (result = r));
    await clock.advance(300);
    world.disconnect('the server closed');
    await clock.runUntil(() => result !== undefined, 120_000);
    expect(result).toMatchObject({ ok: false, code: 'world_disconnected' });
    expect(events.some((e) => e.type === 'step.retry' && e.detail.includes('waiting for the connection'))).toBe(false);
  });

  it('a craft the server did before the connection dropped is checked after the rejoin, not crafted twice', async () => {
    const clock = new ManualClock();
    // One server world, seen through one connection after another: the first drops as the craft goes through.
    const server = SimWorld.create({ clock, inventory: { oak_log: 2 } });
    const first = connectionTo(server, { dropAfter: 'craft' });
    const rejoining = new Rejoining(first.session, {
      clock,
      join: () => Promise.resolve(connectionTo(server, {}).session),
    });
    const assembly = await assembleExecutor({ registry: createDefaultRegistry(), world: rejoining.world, clock });
    const events: ExecutorEvent[] = [];
    assembly.executor.events.on('event', (event) => events.push(event));
    const craft = { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } };
    let result: PlanResult | undefined;
    void assembly.executor.run({ planId: 'p', intentId: 'i', steps: [craft] }).result.then((r) => (result = r));
    await clock.runUntil(() => result !== undefined, 120_000);
    expect(result).toMatchObject({ ok: true });
    expect(events.filter((e) => e.type === 'step.retry').map((e) => e.code)).toEqual(['world_disconnected']);
    expect(server.actuatorLog.filter((entry) => entry.command === 'craft')).toHaveLength(1);
    expect(server.inventory()).toEqual({ oak_log: 1, oak_planks: 4 });
    await rejoining.close();
  });
});

/**
 * A connection to a server world: its own events and connected flag, refusing reads and commands once dropped. With
 * `dropAfter`, it drops the moment that command's effect is done on the server, before the client hears of it.
 */
function connectionTo(server: SimWorld, options: { dropAfter?: string }) {
  let dropped = false;
  const events = new EventEmitter<WorldEvents>();
  server.events.on('path', (status, why) => events.emit('path', status, why));
  const drop = () => {
    dropped = true;
    events.emit('disconnected', 'the server closed');
  };
  const world = new Proxy(server, {
    get(target, property, receiver) {
      if (property === 'events') return events;
      if (property === 'isConnected') return () => !dropped;
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (dropped && property !== 'position' && property !== 'close')
          throw new WorldError('world_disconnected', `${String(property)}: the connection dropped`);
        const answer: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (property !== options.dropAfter) return answer;
        return (answer as Promise<void>).then(drop);
      };
    },
  }) as WorldPort;
  return { session: { world, close: () => Promise.resolve() } satisfies Session };
}
