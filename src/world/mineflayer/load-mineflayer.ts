import Module, { createRequire } from 'node:module';
import path from 'node:path';
import type * as MineflayerModule from 'mineflayer';
import type * as PathfinderModule from 'mineflayer-pathfinder';
import { shareEntityClasses } from './entity-class-memo.js';
import { memoizeMinecraftData } from './minecraft-data-memo.js';
import { rememberPhysicsRequires } from './physics-requires.js';

const require = createRequire(import.meta.url);

/**
 * Loads mineflayer with these fixes. minecraft-data answers each version from memory (`memoizeMinecraftData`: physics
 * asks on every tick), prismarine-physics' own requires are answered from memory after the first
 * (`rememberPhysicsRequires`: its PlayerState requires two modules on every tick), and the bots of a version share one
 * Entity class (`shareEntityClasses`: a class per bot made every read of the entities of many bots megamorphic). And
 * mineflayer's promise helpers (`once`, `withTimeout`) race every wait against a timer they never clear, so after a
 * craft or an equip the process keeps up to 20 s of dead timers and cannot exit. The replacement has the same API and
 * semantics but clears the timer when the wait settles. It must be in the require cache before mineflayer's plugins
 * load; if mineflayer was already loaded elsewhere, the original stays.
 */
let loaded: { mineflayer: typeof MineflayerModule; pathfinder: typeof PathfinderModule } | null = null;

export function loadMineflayer(): { mineflayer: typeof MineflayerModule; pathfinder: typeof PathfinderModule } {
  if (loaded) return loaded;
  memoizeMinecraftData();
  rememberPhysicsRequires();
  shareEntityClasses();
  const mineflayerDir = path.dirname(require.resolve('mineflayer/package.json'));
  const filename = path.join(mineflayerDir, 'lib', 'promise_utils.js');
  if (!require.cache[filename]) {
    const stub = new Module(filename);
    stub.filename = filename;
    stub.loaded = true;
    stub.exports = promiseUtils;
    require.cache[filename] = stub;
  }
  loaded = {
    mineflayer: require('mineflayer') as typeof MineflayerModule,
    pathfinder: require('mineflayer-pathfinder') as typeof PathfinderModule,
  };
  return loaded;
}

interface Task<T> {
  done: boolean;
  promise: Promise<T>;
  cancel(error: unknown): void;
  finish(result?: T): void;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function createTask<T>(): Task<T> {
  const task = { done: false } as Task<T>;
  task.promise = new Promise<T>((resolve, reject) => {
    task.cancel = (error) => {
      if (task.done) return;
      task.done = true;
      reject(error);
    };
    task.finish = (result) => {
      if (task.done) return;
      task.done = true;
      resolve(result as T);
    };
  });
  return task;
}

function createDoneTask(): Task<void> {
  return { done: true, promise: Promise.resolve(), cancel: () => {}, finish: () => {} };
}

function onceWithCleanup(
  emitter: NodeJS.EventEmitter,
  event: string,
  { timeout = 0, checkCondition }: { timeout?: number; checkCondition?: (...data: unknown[]) => boolean } = {},
): Promise<unknown[]> {
  const task = createTask<unknown[]>();
  const onEvent = (...data: unknown[]) => {
    if (typeof checkCondition === 'function' && !checkCondition(...data)) return;
    task.finish(data);
  };
  emitter.addListener(event, onEvent);
  let timer: NodeJS.Timeout | undefined;
  if (typeof timeout === 'number' && timeout > 0) {
    const timeoutError = new Error(`Event ${event} did not fire within timeout of ${timeout}ms`);
    timer = setTimeout(() => task.cancel(timeoutError), timeout);
  }
  task.promise
    .catch(() => {})
    .finally(() => {
      clearTimeout(timer);
      emitter.removeListener(event, onEvent);
    });
  return task.promise;
}

function once(emitter: NodeJS.EventEmitter, event: string, timeout = 20_000): Promise<unknown[]> {
  return onceWithCleanup(emitter, event, { timeout });
}

function withTimeout<T>(promise: Promise<T>, timeout: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Promise timed out.')), timeout);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

const promiseUtils = { once, sleep, createTask, createDoneTask, onceWithCleanup, withTimeout };
