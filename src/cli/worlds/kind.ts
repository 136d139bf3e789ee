import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { Clock } from '../../contracts/clock.js';
import type { WorldPort } from '../../contracts/world.js';
import type { Journal } from '../../journal/journal.js';
import type { Scenario } from '../../world/scenario/schema.js';
import { loadScenario } from '../../world/scenario/load.js';
import { CliUsageError } from '../io.js';

/**
 * What a command may say about the world it opens. Every world reads the seed (retry jitter, and SimWorld's
 * randomness); each kind reads some of the rest (its row's `reads`), each the command-line option of that name.
 */
export interface WorldSettings {
  seed: number;
  scenario?: string;
  host?: string;
  port?: number;
  /** Default `verbtree`. */
  username?: string;
  /** Default 1.21.4, the version the embedded server speaks; `auto` (a remote server) asks the server. */
  version?: string;
  /** How a bot logs in to a remote server: offline (the default) or mineflayer's own Microsoft login. */
  auth?: 'offline' | 'microsoft';
  /** Run the embedded server in a child process, so a server crash cannot take the executor down. */
  isolate?: boolean;
  /**
   * Keep the embedded world in this folder: 'keep' reopens the world there (or starts one in a new or empty
   * folder), 'fresh' empties it first (a folder verbtree manages). Without it the embedded world lives in memory.
   */
  worldFolder?: { path: string; mode: 'fresh' | 'keep' };
}

/** The settings a kind may read or not; the seed every kind reads. */
export type WorldField = Exclude<keyof WorldSettings, 'seed'>;

/** What every journaled world descriptor holds: its kind, the seed and one line saying which world it is. */
export interface DescriptorBase {
  world: string;
  seed: number;
  identity: string;
}

/** A world opened for a command, described by a descriptor of its kind. */
export interface Opened<D extends DescriptorBase> {
  world: WorldPort;
  clock: Clock;
  describe: string;
  /** Which world this is, as the journal records it. */
  descriptor: D;
  /** Cells the scenario marks protected: no repair may break them. */
  protect?: Scenario['protected'];
  /**
   * Another bot in this same world, for a kind where opening it again would make another world (the embedded
   * server); without it, each further bot opens the kind again under its own name (a remote server is still one).
   */
  connectBot?(username: string): Promise<{ world: WorldPort; descriptor: D }>;
  close(): Promise<void>;
}

/**
 * One row of the table of worlds (`src/cli/worlds.ts`): everything the command line, the project config, the
 * journal and a resume need to know about one kind of world. `D` is what identifies its worlds in the journal.
 */
export interface WorldKindSpec<D extends DescriptorBase = DescriptorBase> {
  /** Its name, as `--world` and a config's `world.kind` give it. */
  kind: D['world'];
  /** One line of `--help`. */
  summary: string;
  /** The settings it reads beside the seed; any other given on the command line is refused, naming who reads it. */
  reads: readonly WorldField[];
  /** The settings it cannot open without. */
  needs?: readonly WorldField[];
  /** Given on the command line without `--world`, this setting chooses this kind (`run --host` means remote). */
  chosenBy?: WorldField;
  /** Why a setting other kinds read means nothing here, said after refusing it. */
  refuses?: Partial<Record<WorldField, string>>;
  /** Several bots (`serve --bots`): 'share', they meet in one world; 'apart', each alone in a world of its own. */
  bots: 'share' | 'apart';
  /** Its `world` in a project config beside `kind`: each key the setting of that name. */
  config: Partial<Record<keyof WorldSettings, z.ZodType>>;
  /** What identifies one of its worlds in the journal, so that a resume can tell it is about to act in the same. */
  descriptor: z.ZodType<D>;
  open(settings: WorldSettings): Promise<Opened<D>>;
  /** Why the world a journaled descriptor names cannot be the one the plan ran in; null when it can be. */
  notTheSame(descriptor: D): string | null;
  /** When its world on disk was last saved (steps that succeeded later are checked again); undefined: no disk. */
  savedAt?(descriptor: D): number | undefined;
  /** The world a journaled descriptor names, opened again for a resume of `planId`. */
  reopen(descriptor: D, from: { journal: Journal; planId: string }): Promise<Opened<D>>;
}

export const ScenarioRef = z.strictObject({ path: z.string(), sha256: z.string() });
export type ScenarioRef = z.infer<typeof ScenarioRef>;

/** A scenario file by its absolute path and its content's hash ('missing' when it cannot be read). */
export function scenarioRef(path: string): ScenarioRef {
  const absolute = resolve(path);
  return { path: absolute, sha256: sha256Of(absolute) ?? 'missing' };
}

export function sha256Of(path: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return null;
  }
}

/** The scenario a file holds; a missing or invalid one is a usage error naming the file. */
export async function scenarioOf(path: string | undefined): Promise<Scenario | undefined> {
  if (!path) return undefined;
  return loadScenario(path).catch((error: Error) => {
    throw new CliUsageError(error.message);
  });
}
