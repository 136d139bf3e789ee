import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { ProjectConfigSchema } from '../../src/cli/project-config.js';

// The bot has a stone sword (SimWorld puts the first item in hand); a zombie stands 3 blocks off as the walk starts (ai off: it stays put).
const sim = ['--world', 'sim', '--scenario', 'test/fixtures/zombie-near.scenario.json', '--json'];
const emergencies = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; response?: string; detail?: string })
    .filter((event) => event.type === 'safety.emergency');

// SimWorld under the CLI runs on the system clock: each run takes some 16 s of real time (the fight, then the walk),
// nearly all of it waiting, so the runs (each in a world of its own) go side by side.
describe.concurrent('run --combat and --fight-health-floor', () => {
  it('by default the bot fights the zombie (equip, then attack_entity); --combat avoid flees it', async () => {
    const [fought, avoided] = await Promise.all([
      cli('run', 'test/fixtures/walk-north.plan.json', ...sim),
      cli('run', 'test/fixtures/walk-north.plan.json', ...sim, '--combat', 'avoid'),
    ]);
    expect(emergencies(fought.out)[0]).toMatchObject({ response: 'attack_entity' });
    expect(fought.code).toBe(0);
    expect(emergencies(avoided.out)[0]).toMatchObject({
      response: 'flee',
      detail: expect.stringContaining('the policy avoids fights') as unknown,
    });
  }, 120_000);

  it('a floor above what the fight leaves turns it into a flight; a floor out of range is refused, naming the flag', async () => {
    const [floored, bad, mode] = await Promise.all([
      cli('run', 'test/fixtures/walk-north.plan.json', ...sim, '--fight-health-floor', '20'),
      cli('run', 'test/fixtures/walk-north.plan.json', ...sim, '--fight-health-floor', '30'),
      cli('run', 'test/fixtures/walk-north.plan.json', ...sim, '--combat', 'berserk'),
    ]);
    expect(emergencies(floored.out)[0]).toMatchObject({
      response: 'flee',
      detail: expect.stringContaining('below the floor of 20') as unknown,
    });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--fight-health-floor takes a health from 0 to 20, got "30"');
    expect(mode.code).toBe(2);
    expect(mode.err).toContain('Allowed choices are auto, avoid');
  }, 120_000);
});

describe('the project config sets the combat policy', () => {
  it('takes safety.combat and fightHealthFloor, and names a bad value', () => {
    expect(ProjectConfigSchema.parse({ safety: { combat: 'avoid', fightHealthFloor: 10 } }).safety).toEqual({
      combat: 'avoid',
      fightHealthFloor: 10,
    });
    const bad = ProjectConfigSchema.safeParse({ safety: { combat: 'berserk' } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path).toEqual(['safety', 'combat']);
  });
});
