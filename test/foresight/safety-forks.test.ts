import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/executor/events.js';
import { harness, plan } from '../helpers/executor.js';
import { runHeldForForks, watchedExplorer } from '../helpers/branching.js';

// SimWorld at midnight, mobs by the rules: a creeper three blocks from a bot at full health with a pack of dirt. The
// assessment flees (its fuse outlasts bare-handed blows); with policy.safety.compareOnForks the flight and the pillar
// run on forks and the one that scores best is answered first.
async function creeperMeets(compareOnForks: boolean) {
  const watch = watchedExplorer();
  const h = await harness(
    { ground: { radius: 40 }, timeOfDay: 18_000, health: 20, inventory: { dirt: 16 } },
    { explorer: watch.explorer, policy: { safety: { compareOnForks } } },
  );
  h.world.spawnEntity({ name: 'creeper', kind: 'hostile', position: { x: 3.5, y: 0, z: 0.5 }, ai: true });
  const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 0, y: 0, z: -30, range: 1 } } };
  await runHeldForForks(h, watch, plan(walk));
  const emergencies = h.events.filter((e): e is EventOf<'safety.emergency'> => e.type === 'safety.emergency');
  return { emergencies, requests: watch.requests };
}

describe("the safety layer's options compared on forks (issue 33 §2)", () => {
  it('off by default: the assessment answers, and no fork runs', async () => {
    const { emergencies, requests } = await creeperMeets(false);
    expect(emergencies[0]).toMatchObject({ signal: 'hostile', response: 'flee' });
    expect(emergencies[0]!.detail).not.toContain('compared on forks');
    expect(requests).toHaveLength(0);
  }, 60_000);

  it("on: fight, flee and shelter run on forks, the best scored is answered, and the event gives every fork's score", async () => {
    const { emergencies, requests } = await creeperMeets(true);
    expect(requests[0]!.candidates.map((c) => c.steps.at(-1)!.verb)).toEqual(['flee', 'pillar_up']);
    const { detail, response } = emergencies[0]!;
    expect(detail).toMatch(
      /compared on forks: flee \(.*\): score [\d.]+ \(progress 1, \d+ ms simulated\).*; pillar_up \(.*\): score [\d.]+ /,
    );
    // The best scored is the one answered, and the event says so. (Each fork's walk ends verified once its goal holds
    // at a takeover, so the flight, done in 4.9 s simulated, may now outscore the pillar's 6.9 s.)
    const scores = [...detail.matchAll(/(flee|pillar_up) \(.*?\): score ([\d.]+)/g)].map(([, verb, score]) => ({
      verb,
      score: Number(score),
    }));
    const best = scores.reduce((a, b) => (b.score > a.score ? b : a));
    expect(response).toBe(best.verb);
    expect(detail).toMatch(new RegExp(`${best.verb} \\(.*\\): score ${best.score} .*← chosen`));
  }, 120_000);
});
