import type { Socket } from 'node:net';

/**
 * Sends everything written to `socket` during one turn of the event loop as
 * one write. minecraft-protocol writes each packet to the socket on its own
 * (with Nagle off), which is one system call per packet: a bot's every step
 * becomes a movement packet to each other bot in range, so a fleet of n bots
 * costs n² system calls per step, and with 50 bots those calls alone took 40 %
 * of the process's time. Corking on the first write and uncorking in the same
 * turn's check phase (setImmediate) sends the batch with one writev, before
 * any timer can run, so no packet waits for a later turn.
 */
export function batchWrites(socket: Socket): void {
  const write = socket.write.bind(socket);
  let corked = false;
  const flush = () => {
    corked = false;
    socket.uncork();
  };
  socket.write = function batchedWrite(...args: Parameters<Socket['write']>): boolean {
    if (!corked) {
      corked = true;
      socket.cork();
      setImmediate(flush);
    }
    return write(...args);
  } as Socket['write'];
}
