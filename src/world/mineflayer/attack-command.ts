import type { AttackOptions } from '../../contracts/world.js';
import { ATTACK_COOLDOWN_MS, checkAttack } from '../actuator-rules.js';
import type { BotContext } from './bot-context.js';
import type { Command } from './command-runner.js';
import { entityInfo, isSpawned } from './entities.js';
import { botPosition } from './observe.js';

/**
 * Physics ticks in a row the bot must have come down before a critical swing: the server reads "falling" from the
 * position packets it already has, and the one for the current tick goes out only after the swing's packet.
 */
const DESCENDING_TICKS = 2;
/** A jump still off the ground by then (a ledge it landed short of, a lag) swings anyway. */
const CRITICAL_GIVE_UP_MS = 1_000;
/** A jump that has not left the ground within this many ticks (a ceiling at the head, a cobweb) never will. */
const LIFT_TICKS = 4;

/**
 * One hit on the entity (mineflayer's attack: a swing and a use_entity packet), then, unless `recover` is false, the
 * swing's cooldown. `sprint` tells the server the bot sprints for the swing (the entity_action the client sends when
 * it starts and stops sprinting); `critical` jumps and swings once the bot has come down two ticks, or the tick the
 * jump lands before that (under a tunnel's ceiling two blocks up the body rises 0.2, falls one tick and lands; the
 * server heard that tick's fall and counts the hit critical), or at once, a plain hit, when the jump never leaves the
 * ground. A swing that waited out CRITICAL_GIVE_UP_MS under such a ceiling came every 1.8 s.
 */
export function startAttack(context: BotContext, entityId: number, options: AttackOptions = {}): Command {
  const { bot, clock } = context;
  const inReach = () => {
    const entity = bot.entities[entityId];
    checkAttack(entityId, entity && isSpawned(entity) ? entityInfo(entity) : undefined, botPosition(bot));
    return entity!;
  };
  const swing = () => {
    const entity = inReach();
    const sprint = options.style === 'sprint';
    if (sprint) bot.setControlState('sprint', true);
    bot.attack(entity);
    if (sprint) bot.setControlState('sprint', false);
  };
  let timer: ReturnType<typeof clock.setTimeout> | undefined;
  let stopJump = () => {};
  const recover = (resolve: () => void) => {
    if (options.recover === false) resolve();
    else timer = clock.setTimeout(resolve, ATTACK_COOLDOWN_MS);
  };
  inReach();
  const done = new Promise<void>((resolve, reject) => {
    if (options.style !== 'critical') {
      swing();
      return recover(resolve);
    }
    const startedAt = clock.now();
    let lastY = bot.entity.position.y;
    let [descending, ticks, lifted] = [0, 0, false];
    const onTick = () => {
      const { y } = bot.entity.position;
      const { onGround } = bot.entity;
      descending = !onGround && y < lastY ? descending + 1 : 0;
      lastY = y;
      ticks++;
      if (!onGround) {
        bot.setControlState('jump', false);
        lifted = true;
      }
      const cameDown = descending >= DESCENDING_TICKS;
      const noCritical = lifted ? onGround : ticks >= LIFT_TICKS;
      if (!cameDown && !noCritical && clock.now() - startedAt < CRITICAL_GIVE_UP_MS) return;
      stopJump();
      try {
        swing();
        recover(resolve);
      } catch (error) {
        reject(error);
      }
    };
    stopJump = () => {
      bot.removeListener('physicsTick', onTick);
      bot.setControlState('jump', false);
    };
    bot.setControlState('jump', true);
    bot.on('physicsTick', onTick);
  });
  // A landed hit stays landed; cancelling only cuts the jump or the cooldown short (the runner ends it as aborted).
  return {
    done,
    cancel: () => {
      stopJump();
      if (timer !== undefined) clock.clearTimeout(timer);
    },
  };
}
