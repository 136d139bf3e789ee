import Module, { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Vec3 } from 'vec3';
import { loadMineflayer } from '../../src/world/mineflayer/load-mineflayer.js';

/*
 * Issue 34, §2: prismarine-physics' PlayerState, built by every bot on every physics tick, required two modules each
 * time through Node's whole loader. Once mineflayer is loaded, those requires are answered from memory, and the state
 * reads the same modules (the effects' levels come from minecraft-data's names).
 */

const require = createRequire(import.meta.url);
const fromMineflayer = createRequire(require.resolve('mineflayer'));
type Loader = { _load: (request: string, parent: unknown, isMain: boolean) => unknown };

function botWith(effects: Record<number, { amplifier: number }>) {
  const entity = { position: new Vec3(0, 64, 0), velocity: new Vec3(0, 0, 0), onGround: true, effects, attributes: {} };
  return { version: '1.21.4', entity, jumpTicks: 0, jumpQueued: false, inventory: { slots: [] } };
}

describe('prismarine-physics’ requires, once mineflayer is loaded', () => {
  it('go to Node’s loader no more on each PlayerState, which still reads minecraft-data', () => {
    loadMineflayer();
    const { PlayerState } = fromMineflayer('prismarine-physics') as {
      PlayerState: new (bot: unknown, control: object) => { jumpBoost: number; speed: number; slowness: number };
    };
    const data = fromMineflayer('minecraft-data') as (version: string) => {
      effectsByName: Record<string, { id: number }>;
    };
    const { JumpBoost, Speed } = data('1.21.4').effectsByName;
    const bot = botWith({ [JumpBoost!.id]: { amplifier: 1 }, [Speed!.id]: { amplifier: 0 } });
    new PlayerState(bot, {});

    const loader = Module as unknown as Loader;
    const load = loader._load;
    let loads = 0;
    loader._load = (request, parent, isMain) => {
      loads++;
      return load(request, parent, isMain);
    };
    try {
      for (let i = 0; i < 100; i++) {
        const state = new PlayerState(bot, {});
        expect([state.jumpBoost, state.speed, state.slowness]).toEqual([2, 1, 0]);
      }
    } finally {
      loader._load = load;
    }
    expect(loads).toBe(0);
  });
});
