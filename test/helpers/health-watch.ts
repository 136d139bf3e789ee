import type { EmbeddedServer } from '../../src/world/embedded/index.js';

/**
 * The lowest health the server's truth held for a player, read every 50 ms until stopped: how close the bot came, for
 * a test's summary or a bound on its blows. Not whether it died: the server holds a killed bot at 0 for only 7 to
 * 44 ms before its respawn, and most fall between two reads (a run's `deaths`, `deathsOf` in ./embedded.ts, has them
 * all).
 */
export function watchLowestHealth(server: () => EmbeddedServer, username: string): { lowest(): number; stop(): void } {
  let lowest = 20;
  const timer = setInterval(() => {
    const health = server().player(username)?.health;
    if (health !== undefined) lowest = Math.min(lowest, health);
  }, 50);
  return { lowest: () => lowest, stop: () => clearInterval(timer) };
}
