import type { Socket } from 'node:net';

/**
 * How long a socket's writes are held to be sent as one: until the event loop's turn reaches its check phase
 * (`'turn'`, setImmediate), or until the callback that wrote them is done, its microtasks included (`'callback'`,
 * process.nextTick).
 */
export type WriteBatch = 'turn' | 'callback';

/**
 * Sends what is written to `socket` in one batch as one write (a writev of its packets). minecraft-protocol writes each
 * packet to the socket on its own (with Nagle off): one system call, one TCP segment, per packet.
 *
 * The world server batches a turn: a bot's every step becomes a movement packet to each other bot in range, so a fleet
 * of n bots cost n² system calls per step, and with 50 bots those calls alone took 40 % of the process's time. Its
 * batch is sent in the turn's check phase, before any timer can run, so no packet waits for a later turn.
 *
 * A bot batches a callback: its physics timer runs every tick the body owes in one callback (up to 20 on a late loop:
 * `PHYSICS_CATCH_UP_TICKS`), each sending its position, and in the fleet bench's crowd of 150 a worker's bots wrote
 * 3.5 packets a bot-second in 1.4 callbacks. Sent as the callback ends, the packets of its ticks leave in order, all of
 * them, and none waits for the rest of the turn (the crowd's packets read in its poll phase).
 */
export function batchWrites(socket: Socket, batch: WriteBatch = 'turn'): void {
  const write = socket.write.bind(socket);
  const later = (flush: () => void) => (batch === 'turn' ? setImmediate(flush) : process.nextTick(flush));
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  socket.write = function batchedWrite(...args: Parameters<Socket['write']>): boolean {
    if (!corked) {
      corked = true;
      socket.cork();
      later(uncork);
    }
    return write(...args);
  } as Socket['write'];
}
