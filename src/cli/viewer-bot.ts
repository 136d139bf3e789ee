import type { Bot } from 'mineflayer';
import type { WorldPort } from '../contracts/world.js';
import { type attachViewer, viewerInstalled } from '../api/viewer.js';
import { MineflayerWorld } from '../world/mineflayer/mineflayer-world.js';

/** The raw bot the monitor's 3D view follows: a real bot's, when prismarine-viewer is installed; SimWorld has none. */
export function viewerBotFor(
  world: WorldPort,
  note: (line: string) => void,
): Parameters<typeof attachViewer>[1] | undefined {
  if (!(world instanceof MineflayerWorld)) return undefined;
  if (!viewerInstalled()) {
    note(
      'monitor: no 3D view (the optional package prismarine-viewer is not installed: npm install prismarine-viewer)',
    );
    return undefined;
  }
  // A connected MineflayerWorld drives a mineflayer Bot (instanceof cannot tell the type argument).
  return (world as MineflayerWorld<Bot>).bot;
}
