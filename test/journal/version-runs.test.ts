import { describe, expect, it } from 'vitest';
import type { VersionRun } from '../../src/registry/canary-sla.js';
import { contractBackends } from './backends.js';

const real: VersionRun = {
  verb: 'collect_block',
  version: '1.4.0',
  worldKind: 'embedded',
  shadow: false,
  ok: true,
  code: null,
  ttfaMs: 12.5,
  durationMs: 2400.25,
  damage: 0,
  at: 1000,
};
const shadow: VersionRun = {
  ...real,
  version: '2.0.0',
  shadow: true,
  ok: false,
  code: 'sim_budget',
  ttfaMs: null,
  damage: 1.5,
};

describe.each(contractBackends())('version runs and promotions on %s', (_name, fresh) => {
  it('keeps each run of a version and each promotion durably, for another connection to read', async () => {
    const { journal, another } = await fresh();
    await journal.recordVersionRun(real);
    await journal.recordVersionRun(shadow);
    await journal.recordVersionRun({ ...real, verb: 'navigate', version: '1.0.0' });
    await journal.recordPromotion('collect_block', '2.0.0');
    await journal.recordPromotion('collect_block', '2.0.0');
    const reader = await another();
    expect(await reader.versionRuns('collect_block')).toEqual([real, shadow]);
    expect((await reader.versionRuns()).map((run) => run.verb)).toEqual(['collect_block', 'collect_block', 'navigate']);
    expect(await reader.promotions()).toEqual([
      { verb: 'collect_block', version: '2.0.0', promotedAt: expect.any(Number) as number },
    ]);
  });
});
