import { once } from 'node:events';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

/** What vanilla tells the session a new login of its name replaces. */
export const REPLACED_REASON = 'You logged in from another location';

interface ClientSocket {
  destroyed: boolean;
  writableFinished: boolean;
  once(event: 'finish', listener: () => void): unknown;
  destroy(): void;
}

/**
 * A new login of a name already online kicks the old session, as vanilla does: the fence at the resource itself,
 * so a stale holder's session never stands beside its successor's. flying-squid means to refuse the new login
 * instead ("You are already connected"), but checks the player's uuid before it sets it, so both sessions stay.
 *
 * The new login waits until the old session is gone from the server (its `disconnected`, which removes it from the
 * players), so the old session's logout cannot remove the new one's entry. The old socket is closed once the kick
 * has been handed to the kernel, not when the old client answers: a client that does not read (frozen, cut off) is
 * gone at once rather than at minecraft-protocol's 30 s close timer. Of two new logins racing, the later one wins.
 */
export function loginTakeoverPlugin(): SquidPlugin {
  /** The login waiting for each uuid's old session to go. */
  const arriving = new Map<string, SquidPlayer>();
  return {
    player(player: SquidPlayer, serv: SquidServer) {
      // player.login is defined by flying-squid's login plugin, after this one; 'asap' comes before it runs.
      player.once('asap', () => {
        const login = player.login as () => Promise<void>;
        player.login = async () => {
          const uuid = (player._client as unknown as { uuid: string }).uuid;
          const online = (serv as unknown as { uuidToPlayer: Record<string, SquidPlayer | undefined> }).uuidToPlayer;
          const replaced = [online[uuid], arriving.get(uuid)].filter((p): p is SquidPlayer => !!p && p !== player);
          arriving.set(uuid, player);
          await Promise.all(replaced.map(endSession));
          // A later login of the name replaced this one while it waited.
          if (arriving.get(uuid) !== player || player.disconnected) return;
          arriving.delete(uuid);
          await login();
        };
      });
    },
  };
}

/** Kicks the session and resolves once flying-squid has logged it out. */
async function endSession(player: SquidPlayer): Promise<void> {
  if (player.disconnected) return;
  const gone = once(player, 'disconnected');
  player.kick(REPLACED_REASON);
  const socket = player._client.socket as ClientSocket | undefined;
  if (socket && !socket.destroyed) {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  }
  await gone;
}
