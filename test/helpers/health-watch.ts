import type { EmbeddedServer } from '../../src/world/embedded/index.js';

/**
 * The lowest health the server's truth held for a player, read every 50 ms until stopped: a bot must never reach 0,
 * even for a moment between two observations of the executor.
 */
export function watchLowestHealth(server: () => EmbeddedServer, username: string): { lowest(): number; stop(): void } {
  let lowest = 20;
  const timer = setInterval(() => {
    const health = server().player(username)?.health;
    if (health !== undefined) lowest = Math.min(lowest, health);
  }, 50);
  return { lowest: () => lowest, stop: () => clearInterval(timer) };
}
