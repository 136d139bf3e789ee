import { offlineBot } from '../test/helpers/offline-bot.js';
import { readCrowdMovesDirectly } from '../src/world/mineflayer/crowd-moves.js';
import { shareBlockStates } from '../src/world/mineflayer/shared-block-states.js';
import { splitFramesInPlace } from '../src/world/protocol/frames-in-place.js';
import type { Splitter } from '../src/world/protocol/stackless-frames.js';

/*
 * What a bot of a crowd pays for each frame of the others' moves it receives, in-process (issue 34 §2): an offline bot
 * that sees N players is written the crowd's mix of moves (by the packet tally of the embedded fleet: moves, head
 * turns, moves with a look, looks) in reads of READ frames each, as a socket delivers them, the usual way and the way a
 * fleet bot reads them (connect.ts), in turn, twice. CPU per frame, and the heap allocated per frame.
 *
 *   npx tsx bench/crowd-frames.ts [N, default 300] [frames per read, default 40]
 */

const players = Number(process.argv[2] ?? 300);
const READ = Number(process.argv[3] ?? 40);
const FRAMES = 400_000;
const uuid = (k: number) => `00000000-0000-0000-0000-${k.toString(16).padStart(12, '0')}`;

for (const direct of [false, true, false, true]) {
  const { bot, receive, framed, write } = await offlineBot(256);
  if (direct) {
    shareBlockStates(bot);
    readCrowdMovesDirectly(bot);
    splitFramesInPlace((bot._client as unknown as { splitter: Splitter }).splitter);
  }
  for (let k = 0; k < players; k++) {
    const at = { x: k, y: 5, z: 0, pitch: 0, yaw: 0, headPitch: 0, objectData: 0, velocity: { x: 0, y: 0, z: 0 } };
    receive('spawn_entity', { entityId: k + 10, objectUUID: uuid(k), type: 147, ...at });
  }
  const mix = (k: number, i: number): Buffer => {
    const entityId = (k % players) + 10;
    const step = i % 8;
    if (step < 3) return framed('rel_entity_move', { entityId, dX: 40, dY: 0, dZ: -40, onGround: true });
    if (step < 5) return framed('entity_head_rotation', { entityId, headYaw: i % 100 });
    if (step < 7)
      return framed('entity_move_look', { entityId, dX: -40, dY: 0, dZ: 40, yaw: 3, pitch: 0, onGround: true });
    return framed('entity_look', { entityId, yaw: i % 100, pitch: 0, onGround: true });
  };
  const reads: Buffer[] = [];
  for (let i = 0; i < 4000 / READ; i++)
    reads.push(Buffer.concat(Array.from({ length: READ }, (_, j) => mix(i * READ + j, i + j))));
  for (const read of reads) write(read);
  const heapBefore = process.memoryUsage().heapUsed;
  const before = process.cpuUsage();
  let frames = 0;
  while (frames < FRAMES) {
    for (const read of reads) write(read);
    frames += reads.length * READ;
  }
  const used = process.cpuUsage(before);
  const ns = ((used.user + used.system) * 1000) / frames;
  const heap = process.memoryUsage().heapUsed - heapBefore;
  console.log(
    `${players} players in view, ${READ} frames a read, ${direct ? 'as a fleet bot' : 'the usual way'}: ` +
      `${ns.toFixed(0)} ns CPU a frame (heap +${(heap / 1e6).toFixed(1)} MB over ${frames} frames)`,
  );
  bot.end();
}
