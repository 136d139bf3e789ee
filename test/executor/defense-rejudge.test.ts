import { describe, expect, it } from 'vitest';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { match } from '../helpers/matchers.js';
import { nightWork } from '../helpers/night-fight.js';

/*
 * Issue 30, the server's world 10 of a tech-tree run: a fight judged on a lone zombie ("a zombie, wooden_sword 4 per
 * hit, expected 4.4 damage taken of 15", break-off at 6) was joined by a spider it never judged; it took 11 and broke
 * off at 4, where only a flight the spider follows was left, and the spider killed the bot. A fight is judged again
 * when a hostile it was not judged on comes within reach, at the health the bot has then.
 */

type Ended = Extract<ExecutorEvent, { type: 'step.ended' }>;
type Emergency = Extract<ExecutorEvent, { type: 'safety.emergency' }>;

describe('a fight joined by a mob it was not judged on is judged again', () => {
  it('a zombie fight at 15 with a wooden sword, a spider released 14 blocks off 1 s in: the fight breaks off as the spider comes, the encounter of both is judged above the old break-off point, and the bot lives', async () => {
    const { h, collect } = await nightWork({
      pack: { wooden_sword: 1, wooden_pickaxe: 1 },
      held: 'wooden_pickaxe',
      health: 15,
      logs: [[30, 0]],
      hostiles: [{ name: 'zombie', x: 4, z: 0, ai: true }],
    });
    let spider: number | null = null;
    const healthAt = new Map<ExecutorEvent, number>();
    h.assembly.executor.events.on('event', (event) => {
      healthAt.set(event, h.world.health());
      if (spider !== null || event.type !== 'step.started' || event.verb !== 'attack_entity') return;
      h.clock.setTimeout(() => {
        const at = h.world.position();
        spider = h.world.spawnEntity({
          name: 'spider',
          kind: 'hostile',
          position: { x: Math.floor(at.x) - 13.5, y: 0, z: Math.floor(at.z) + 0.5 },
          ai: true,
        });
      }, 1_000);
    });
    const result = await collect();
    const story = JSON.stringify(
      h.events
        .filter((e) => e.type === 'step.ended' || e.type === 'safety.emergency')
        .map((e) => [e.type, (e as Ended).outcome ?? (e as Emergency).detail, healthAt.get(e)]),
    );
    const fights = h.events.filter((e): e is Ended => e.type === 'step.ended' && e.verb === 'attack_entity');
    const joined = fights.find((e) => !e.outcome.ok && e.outcome.detail.includes('a spider joined the fight'));
    expect(joined, story).toBeDefined();
    expect(joined!.outcome).toMatchObject({
      ok: false,
      code: 'preempted',
      detail: match.stringContaining('a spider joined the fight with the zombie: judged again'),
    });
    // Judged again at once, on both mobs, with the health the bot had when the spider came: above the old point of 6.
    const rejudged = h.events.find(
      (e): e is Emergency => e.type === 'safety.emergency' && e.at >= joined!.at && /spider/.test(e.detail),
    );
    expect(rejudged, story).toBeDefined();
    expect(healthAt.get(rejudged!), story).toBeGreaterThan(6);
    expect(h.deaths, story).toEqual([]);
    expect(result.ok, story).toBe(true);
  });
});
