import { eat, MAX_FOOD } from '../../health-rules.js';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

/** Vanilla eating takes 32 ticks (1.6 s). */
const EATING_TICKS = 32;
const EATING_FINISHED_STATUS = 9;
const RELEASE_USE_ITEM_STATUS = 5;

interface Eating {
  player: SquidPlayer;
  itemType: number;
  finishesAtTick: number;
}

interface FoodData {
  foodPoints: number;
  saturation: number;
}

/**
 * Eating, which flying-squid 1.12 lacks: using a food item starts a 32-tick
 * meal; when it ends the server takes one item, raises food and saturation and
 * tells the client (entity status 9), which is what mineflayer's `bot.consume`
 * waits for. Releasing the use key cancels the meal.
 */
export function foodPlugin(): SquidPlugin {
  const meals = new Map<SquidPlayer, Eating>();

  function finish(serv: SquidServer, meal: Eating): void {
    const { player } = meal;
    meals.delete(player);
    const slot = 36 + player.heldItemSlot;
    const held = player.inventory.slots[slot];
    if (!held || held.type !== meal.itemType) return;
    const food = foodOf(serv, held.name);
    if (!food) return;
    held.count -= 1;
    player.inventory.updateSlot(slot, held.count > 0 ? held : null);
    const hunger = eat(
      { food: player.food, saturation: player.foodSaturation ?? 0, exhaustion: 0 },
      food.foodPoints,
      food.saturation,
    );
    player.food = hunger.food;
    player.foodSaturation = hunger.saturation;
    player.updateHealth(player.health);
    player._client.write('entity_status', { entityId: player.id, entityStatus: EATING_FINISHED_STATUS });
  }

  return {
    server(serv: SquidServer) {
      serv.on('tick', (_delta: number, tick: number) => {
        for (const meal of [...meals.values()]) if (tick >= meal.finishesAtTick) finish(serv, meal);
      });
    },
    player(player: SquidPlayer, serv: SquidServer) {
      player._client.on('use_item', () => {
        const held = player.inventory.slots[36 + player.heldItemSlot];
        if (!held || !foodOf(serv, held.name) || player.food >= MAX_FOOD) return;
        meals.set(player, { player, itemType: held.type, finishesAtTick: serv.tickCount + EATING_TICKS });
      });
      player._client.on('block_dig', ({ status }: { status: number }) => {
        if (status === RELEASE_USE_ITEM_STATUS) meals.delete(player);
      });
      player.once('disconnected', () => meals.delete(player));
    },
  };
}

function foodOf(serv: SquidServer, itemName: string): FoodData | undefined {
  return (serv.registry as unknown as { foodsByName: Record<string, FoodData> }).foodsByName[itemName];
}
