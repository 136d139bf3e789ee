import { Vec3 } from 'vec3';
import { activationOf, doorPartner, isOpenable, TILLABLE, toggledProperty } from '../../activation.js';
import { blockStateOf, withBoolean } from '../block-states.js';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

/**
 * Using blocks, which flying-squid 1.12 ignores: a right click opens or shuts a wooden door (both halves),
 * trapdoor or fence gate, flips a lever, and tills dirt, grass or a path with a hoe in hand, by the rules
 * SimWorld follows (world/activation.ts). Anything else falls through to flying-squid (placing a block).
 */
export function activationPlugin(): SquidPlugin {
  return {
    server(serv: SquidServer) {
      const { registry } = serv;
      const world = serv.overworld;
      const nameAt = async (p: Vec3) => registry.blocksByStateId[await world.getBlockStateId(p)]?.name ?? null;
      const heldBy = (player: SquidPlayer) => player.inventory.slots[36 + player.heldItemSlot]?.name ?? null;

      const toggle = async (position: Vec3) => {
        const stateId = await world.getBlockStateId(position);
        const before = blockStateOf(registry, stateId);
        const key = toggledProperty(before.name)!;
        const after = activationOf(position.toString(), before, null, null);
        await serv.setBlock(world, position, withBoolean(registry, stateId, key, after.properties[key]!));
        return { before, value: after.properties[key]! };
      };

      const toggles = Object.keys(registry.blocksByName).filter((name) => isOpenable(name) || name === 'lever');
      for (const name of toggles) {
        serv.onBlockInteraction(name, async ({ block: { position } }) => {
          const cell = position.floored();
          const { before, value } = await toggle(cell);
          const partnerY = new Map<number, string | null>([
            [cell.y + 1, await nameAt(cell.offset(0, 1, 0))],
            [cell.y - 1, await nameAt(cell.offset(0, -1, 0))],
          ]);
          const partner = doorPartner(cell, before.name, (y) => partnerY.get(y) ?? null);
          if (partner) {
            const other = new Vec3(partner.x, partner.y, partner.z);
            await serv.setBlock(world, other, withBoolean(registry, await world.getBlockStateId(other), 'open', value));
          }
          return true;
        });
      }
      for (const soil of TILLABLE) {
        serv.onBlockInteraction(soil, async ({ block: { position }, player }) => {
          if (!heldBy(player)?.endsWith('_hoe')) return false;
          const cell = position.floored();
          if ((await nameAt(cell.offset(0, 1, 0))) !== 'air') return true;
          await serv.setBlock(world, cell, registry.blocksByName.farmland!.defaultState);
          return true;
        });
      }
    },
  };
}
