import { EventEmitter } from 'node:events';
import type { Bot } from 'mineflayer';
import { describe, expect, it } from 'vitest';
import type { Death } from '../../src/contracts/world.js';
import { CommandRunner } from '../../src/world/mineflayer/command-runner.js';
import { watchDeaths } from '../../src/world/mineflayer/death-watch.js';

/*
 * A death names who dealt the killing blow, never an earlier attacker: on the embedded server a bot hit by a skeleton,
 * then killed by the server's command long after, was reported killed by the skeleton. The packets are mineflayer's
 * order (its health plugin: `health`, then `death` on 0); the bot is the part of mineflayer's Bot the watch reads.
 */
function watchedBot() {
  const client = new EventEmitter();
  const bot = Object.assign(new EventEmitter(), {
    _client: client,
    health: 20,
    entity: { id: 1, position: { x: 3.5, y: 5, z: 0.5 } },
    entities: { 7: { name: 'skeleton' }, 8: { name: 'zombie' } },
  });
  const deaths: Death[] = [];
  watchDeaths(bot as unknown as Bot, new CommandRunner(), (death) => deaths.push(death));
  const hit = (by: number | null) =>
    client.emit('damage_event', { entityId: 1, sourceCauseId: by === null ? 0 : by + 1 });
  const health = (value: number) => {
    bot.health = value;
    bot.emit('health');
    if (value <= 0) bot.emit('death');
  };
  return { deaths, hit, health };
}

describe('a real bot’s death, as mineflayer reports it', () => {
  it('names the mob whose blow killed it, and the health before that blow', () => {
    const { deaths, hit, health } = watchedBot();
    hit(8);
    health(6);
    hit(7);
    health(0);
    expect(deaths).toEqual([{ healthBefore: 6, cause: 'skeleton', position: { x: 3.5, y: 5, z: 0.5 } }]);
  });

  it('a death with no blow of its own (the server’s command, a fall with no source) names nobody, not the last attacker', () => {
    const { deaths, hit, health } = watchedBot();
    hit(7);
    health(10);
    health(0);
    hit(8);
    health(15);
    hit(null);
    health(0);
    expect(deaths).toEqual([
      { healthBefore: 10, position: { x: 3.5, y: 5, z: 0.5 } },
      { healthBefore: 15, position: { x: 3.5, y: 5, z: 0.5 } },
    ]);
  });
});
