import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadMineflayer } from '../../src/world/mineflayer/load-mineflayer.js';
import { memoizeByVersion, type MinecraftData } from '../../src/world/mineflayer/minecraft-data-memo.js';

const require = createRequire(import.meta.url);
/** minecraft-data as prismarine-physics requires it on every simulated tick. */
const physicsRequire = () =>
  createRequire(createRequire(require.resolve('mineflayer')).resolve('prismarine-physics'))(
    'minecraft-data',
  ) as MinecraftData;

describe('minecraft-data as the loaded mineflayer sees it', () => {
  it('calls the original once per version, and keeps what else the module exports', () => {
    const asked: unknown[] = [];
    const original = Object.assign(
      (version: unknown, preNetty?: boolean) => {
        asked.push([version, preNetty === true]);
        return version === 'none' ? null : { version };
      },
      { supportedVersions: ['1.21.4'] },
    );
    const memoized = memoizeByVersion(original as typeof original & MinecraftData);
    const first = memoized('1.21.4');
    expect(memoized('1.21.4')).toBe(first);
    expect(memoized('1.21.4', true)).not.toBe(first);
    expect(memoized('none')).toBeNull();
    expect(memoized('none')).toBeNull();
    expect(asked).toEqual([
      ['1.21.4', false],
      ['1.21.4', true],
      ['none', false],
    ]);
    expect(memoized.supportedVersions).toEqual(['1.21.4']);
  });

  it('is what prismarine-physics gets once mineflayer is loaded, answering as minecraft-data does', () => {
    const original = physicsRequire();
    loadMineflayer();
    const data = physicsRequire();
    expect(data[Symbol.for('verbtree.minecraftDataMemo')]).toBe(true);
    expect(data('1.21.4')).toBe(original('1.21.4'));
    expect(data('no such version')).toBeNull();
    expect(data.supportedVersions).toBe(original.supportedVersions);
    // Loading again wraps nothing twice.
    loadMineflayer();
    expect(physicsRequire()).toBe(data);
  });
});
