import { offlineBot } from '../test/helpers/offline-bot.js';
import { updateTabLatencyDirectly } from '../src/world/mineflayer/tab-latency.js';

/*
 * What one tab-list latency update costs a bot of a crowd, in-process (issue 34 §2): an offline bot that knows N players
 * and sees each of them (N player entities) is sent one player_info update of the N latencies, the usual way
 * (mineflayer's handler: every entity scanned for each entry) and the direct way (src/world/mineflayer/tab-latency.ts),
 * in turn, twice. A worker's share is the bots it holds × this ÷ the update's period (flying-squid's 5 s, vanilla's 30 s).
 *
 *   npx tsx bench/fleet-tab-latency.ts [N, default 300]
 */

const players = Number(process.argv[2] ?? 300);
const UPDATES = 200;
const uuid = (k: number) => `00000000-0000-0000-0000-${k.toString(16).padStart(12, '0')}`;

for (const direct of [false, true, false, true]) {
  const { bot, receive, framed, write } = await offlineBot(256);
  if (direct) updateTabLatencyDirectly(bot);
  for (let k = 0; k < players; k++) {
    const added = { uuid: uuid(k), player: { name: `p${k}`, properties: [] } };
    receive('player_info', { action: { add_player: true }, data: [added] });
    const at = { x: k, y: 5, z: 0, pitch: 0, yaw: 0, headPitch: 0, objectData: 0, velocity: { x: 0, y: 0, z: 0 } };
    receive('spawn_entity', { entityId: k + 10, objectUUID: uuid(k), type: 147, ...at });
  }
  const latencies = Array.from({ length: players }, (_, k) => ({ uuid: uuid(k), latency: k }));
  const update = framed('player_info', { action: { update_latency: true }, data: latencies });
  for (let i = 0; i < UPDATES / 10; i++) write(update);
  const before = process.cpuUsage();
  for (let i = 0; i < UPDATES; i++) write(update);
  const used = process.cpuUsage(before);
  const ms = (used.user + used.system) / 1000 / UPDATES;
  console.log(
    `${players} players in view, ${direct ? 'direct' : 'mineflayer'}: ${ms.toFixed(3)} ms CPU a bot an update`,
  );
  bot.end();
}
