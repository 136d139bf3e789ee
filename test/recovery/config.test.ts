import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_STUCK_CONFIG,
  loadStuckConfig,
  parseStuckConfig,
  StuckConfigError,
} from '../../src/recovery/config.js';

const dir = await mkdtemp(join(tmpdir(), 'verbtree-stuck-config-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

function errorOf(run: () => unknown): StuckConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof StuckConfigError) return error;
    throw error;
  }
  throw new Error('expected a StuckConfigError');
}

describe('stuck config', () => {
  it('carries the spec defaults', () => {
    const { detection, recovery } = DEFAULT_STUCK_CONFIG;
    expect(detection.position).toEqual({ thresholdMs: 5_000, epsilonBlocks: 0.1 });
    expect(detection.state.timeoutsMs).toEqual({ PLANNING: 30_000, EXECUTING: 60_000, RECOVERING: 15_000 });
    expect(detection.progress.stallMs).toBe(10_000);
    expect(detection.path.maxConsecutiveFailures).toBe(3);
    expect(detection.flap).toMatchObject({ maxReversals: 3, windowMs: 10_000 });
    expect(detection.noActuator.limitMs).toBe(3_000);
    expect(recovery.strategies.retry).toMatchObject({
      priority: 100,
      maxAttempts: 2,
      initialDelayMs: 1_000,
      maxDelayMs: 10_000,
      backoffMultiplier: 2,
    });
    expect(recovery.strategies.teleport.enabled).toBe(false);
    expect(recovery.strategies.escalate.maxPerTask).toBe(2);
    expect(recovery.budgets).toEqual({
      attemptsPerStep: 8,
      totalPerTask: 20,
      maxConsecutiveStuck: 5,
      maxIncidentsPerHour: 10,
    });
    expect(recovery.learning.enabled).toBe(false);
    expect(recovery.plannerLoop).toEqual({ similarityThreshold: 0.6, window: 3, maxHistory: 10 });
  });

  it('fills a partial config with defaults', () => {
    const config = parseStuckConfig({
      detection: { position: { thresholdMs: 2_000 } },
      recovery: { strategies: { teleport: { enabled: true } } },
    });
    expect(config.detection.position).toEqual({ thresholdMs: 2_000, epsilonBlocks: 0.1 });
    expect(config.recovery.strategies.teleport).toMatchObject({ enabled: true, priority: 50 });
    expect(config.recovery.byType.path).toEqual(DEFAULT_STUCK_CONFIG.recovery.byType.path);
  });

  it('names the key path, the expectation and the value for each invalid key', () => {
    const error = errorOf(() =>
      parseStuckConfig({
        detection: { position: { thresholdMs: -5 } },
        recovery: { budgets: { totalPerTask: 0 }, byType: { flap: ['repath', 'fly'] } },
      }),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'detection.position.thresholdMs',
      'recovery.byType.flap.1',
      'recovery.budgets.totalPerTask',
    ]);
    expect(error.message).toContain('"detection.position.thresholdMs": must be > 0 ms, got -5');
    expect(error.message).toContain('"recovery.budgets.totalPerTask": must be at least 1, got 0');
    expect(error.message).toMatch(/"recovery\.byType\.flap\.1": .*"retry".*got "fly"/);
  });

  it('rejects unknown keys by name', () => {
    expect(() => parseStuckConfig({ recovery: { strategies: { retry: { maxAtempts: 4 } } } })).toThrow(
      /"recovery\.strategies\.retry": Unrecognized key: "maxAtempts"/,
    );
  });

  it('loads from a JSON file and reports unreadable or malformed files with their path', async () => {
    const good = join(dir, 'good.json');
    await writeFile(good, JSON.stringify({ detection: { noActuator: { limitMs: 4_000 } } }));
    expect((await loadStuckConfig(good)).detection.noActuator.limitMs).toBe(4_000);
    const withBom = join(dir, 'bom.json');
    await writeFile(withBom, `\ufeff${JSON.stringify({ detection: { noActuator: { limitMs: 4_500 } } })}`);
    expect((await loadStuckConfig(withBom)).detection.noActuator.limitMs).toBe(4_500);
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{ "detection": ');
    await expect(loadStuckConfig(bad)).rejects.toThrow(`Stuck config ${bad} is not valid JSON`);
    const invalid = join(dir, 'invalid.json');
    await writeFile(invalid, JSON.stringify({ detection: { tickMs: 'fast' } }));
    await expect(loadStuckConfig(invalid)).rejects.toThrow(`Invalid stuck config ${invalid}:\n  "detection.tickMs"`);
    await expect(loadStuckConfig(join(dir, 'missing.json'))).rejects.toThrow(
      /Cannot read stuck config .*missing\.json/,
    );
  });
});
