import { type Vec3Like, WorldError } from '../../contracts/world.js';
import { checkSleep, SLEEP_MONSTER_RANGE, SLEEP_MS } from '../actuator-rules.js';
import { EYE_HEIGHT, REACH } from '../reach.js';
import { type BotContext, toVec3 } from './bot-context.js';
import type { Command } from './command-runner.js';
import { botPosition, visibleEntities } from './observe.js';
import { waitFor } from './wait-for.js';

/** Besides the night skip itself: the server's tick and the wake packets. */
const WAKE_SLACK_MS = 10_000;

const at = (p: Vec3Like) => `${Math.floor(p.x)},${Math.floor(p.y)},${Math.floor(p.z)}`;

/** Lies in the bed (mineflayer's sleep), then waits until the server wakes the bot at sunrise. Cancelling gets up. */
export function startSleep(context: BotContext, bed: Vec3Like): Command {
  const { bot, clock } = context;
  const block = bot.blockAt(toVec3(bed));
  const feet = botPosition(bot);
  const monster = visibleEntities(bot).find(
    (e) =>
      e.kind === 'hostile' &&
      Math.hypot(e.position.x - feet.x, e.position.y - feet.y, e.position.z - feet.z) <= SLEEP_MONSTER_RANGE,
  );
  // The time as the server holds it where it can be asked, else as it last told the client.
  checkSleep(at(bed), block?.name ?? null, context.serverTruth?.timeOfDay?.() ?? bot.time.timeOfDay, monster);
  const distance = bot.entity.position.offset(0, EYE_HEIGHT, 0).distanceTo(block!.position.offset(0.5, 0.5, 0.5));
  if (distance > REACH)
    throw new WorldError(
      'precondition_missing',
      `sleep: the bed at ${at(bed)} is ${distance.toFixed(1)} blocks away, reach is ${REACH}; walk closer first`,
    );
  const done = (async () => {
    try {
      await bot.sleep(block!);
    } catch (error) {
      throw new WorldError(
        'guard_failed',
        `sleep: the bed at ${at(bed)} could not be slept in: ${(error as Error).message}`,
      );
    }
    await waitFor(
      clock,
      SLEEP_MS + WAKE_SLACK_MS,
      () => !bot.isSleeping,
      (check) => {
        bot.on('wake', check);
        return () => bot.removeListener('wake', check);
      },
    ).catch(() => {
      throw new WorldError(
        'effects_unmet',
        `sleep: lay in the bed at ${at(bed)} for ${SLEEP_MS + WAKE_SLACK_MS} ms and the night did not end`,
      );
    });
  })();
  return { done, cancel: () => void (bot.isSleeping ? bot.wake().catch(() => undefined) : undefined) };
}
