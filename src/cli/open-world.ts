import { worldKind, type WorldDescriptor, type WorldKind } from './worlds.js';
import type { Opened, WorldSettings } from './worlds/kind.js';

/** The world a command opens: its kind, and the settings the command gathered for it. */
export type WorldChoice = WorldSettings & { world: WorldKind };

export type OpenedWorld = Opened<WorldDescriptor>;

/**
 * Opens the world a command runs against, as its row in the table of worlds says (`src/cli/worlds.ts`): only the
 * settings its kind reads reach it, so a config's world of another kind leaves nothing behind.
 */
export function openWorld(choice: WorldChoice): Promise<OpenedWorld> {
  const row = worldKind(choice.world);
  const settings: WorldSettings = { seed: choice.seed };
  for (const field of row.reads) if (choice[field] !== undefined) Object.assign(settings, { [field]: choice[field] });
  return row.open(settings);
}
