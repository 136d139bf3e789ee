import { createRequire } from 'node:module';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

const require = createRequire(import.meta.url);

/** Entity metadata index of a dropped item's stack since 1.17. */
const ITEM_STACK_INDEX = 8;

interface SpawnedEntity {
  id: number;
  itemId?: number;
  itemCount?: number;
}

/**
 * Tells a client what a dropped item holds. flying-squid 1.12 sends no entity
 * metadata on 1.20.2+, so a bot sees an 'item' entity but not which item,
 * and cannot tell its log from anything else on the ground.
 */
export const dropMetadataPlugin: SquidPlugin = {
  player(player: SquidPlayer, serv: SquidServer) {
    const loadItem = require('prismarine-item') as (registry: SquidServer['registry']) => {
      new (type: number, count: number): object;
      toNotch(item: object): object;
    };
    const Item = loadItem(serv.registry);
    // spawnEntity is defined by a plugin that runs after this one, hence 'asap'.
    player.once('asap', () => {
      const spawnEntity = player.spawnEntity as (entity: SpawnedEntity) => void;
      player.spawnEntity = (entity: SpawnedEntity) => {
        spawnEntity(entity);
        if (entity.itemId === undefined) return;
        player._client.write('entity_metadata', {
          entityId: entity.id,
          metadata: [
            {
              key: ITEM_STACK_INDEX,
              type: 'item_stack',
              value: Item.toNotch(new Item(entity.itemId, entity.itemCount ?? 1)),
            },
          ],
        });
      };
    });
  },
};
