import { describe, expect, it } from 'vitest';
import { judgeStep, observation } from '../../src/testing/index.js';
import navigate from './index.js';
import { match } from '../../test/helpers/matchers.js';

const at = (x: number, y: number, z: number) => observation({ position: { x, y, z } });

describe('navigate', () => {
  it('accepts standing on the target block and rejects a neighbouring one', () => {
    const args = navigate.inputSchema.parse({ target: { kind: 'block', x: 3, y: 0, z: 4 } });
    expect(judgeStep(navigate, at(0, 0, 0), at(3.5, 0, 4.5), args)).toEqual({ ok: true });
    const miss = judgeStep(navigate, at(0, 0, 0), at(4.5, 0, 4.5), args);
    expect(miss.ok).toBe(false);
    if (!miss.ok)
      expect(miss.unmet[0]).toBe('the bot stands on (3, 0, 4): it stands on 4,0,4 (feet at y 0), 1.0 blocks short');
  });

  it('accepts anywhere within range of a near target, defaulting range to 2', () => {
    const args = navigate.inputSchema.parse({ target: { kind: 'near', x: 10, y: 0, z: 0 } });
    expect(args.target).toMatchObject({ range: 2 });
    expect(judgeStep(navigate, at(0, 0, 0), at(8.6, 0, 0.5), args).ok).toBe(true);
    expect(judgeStep(navigate, at(0, 0, 0), at(7.4, 0, 0.5), args).ok).toBe(false);
  });

  it('ignores height for a column target', () => {
    const args = navigate.inputSchema.parse({ target: { kind: 'xz', x: 0, z: 0 } });
    expect(judgeStep(navigate, at(5, 0, 5), at(0.5, 40, 0.5), args).ok).toBe(true);
  });

  it('guards against targets too far for one step and names the fix', () => {
    const args = navigate.inputSchema.parse({ target: { kind: 'near', x: 2000, y: 0, z: 0 } });
    const verdict = navigate.guard({ observation: at(0, 0, 0), world: undefined as never }, args);
    expect(verdict).toMatchObject({ ok: false, reason: match.stringMatching(/split the route into waypoints/) });
    expect(navigate.guard({ observation: at(1990, 0, 0), world: undefined as never }, args)).toEqual({ ok: true });
  });

  it('rejects a target kind it does not know', () => {
    expect(navigate.inputSchema.safeParse({ target: { kind: 'biome', name: 'taiga' } }).success).toBe(false);
  });
});
