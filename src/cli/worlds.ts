import { z } from 'zod';
import { embeddedWorld } from './worlds/embedded.js';
import type { DescriptorBase, WorldKindSpec, WorldSettings } from './worlds/kind.js';
import { remoteWorld } from './worlds/remote.js';
import { simWorld } from './worlds/sim.js';

/**
 * The table of worlds: one row per kind, each saying its options and their checks, its project-config schema,
 * how it opens, what identifies it in the journal and how a resume recognises and reopens it, and whether several
 * bots share it (`WorldKindSpec` in worlds/kind.ts). `--world`, the config's `world`, the help text, the journal's
 * descriptor and the resume all read it: a new kind is a file in worlds/ and one entry here.
 */
export const WORLDS = [embeddedWorld, simWorld, remoteWorld] as const;

export type WorldKind = (typeof WORLDS)[number]['kind'];
export const WORLD_KINDS: readonly WorldKind[] = WORLDS.map((row) => row.kind);

type DescriptorOf<Row> = Row extends WorldKindSpec<infer D> ? D : never;
/** Which world a plan ran in, journaled with the plan so a resume can tell whether it is about to act in the same. */
export type WorldDescriptor = DescriptorOf<(typeof WORLDS)[number]>;
export const WorldDescriptor = z.union(WORLDS.map((row) => row.descriptor));

export function isWorldKind(value: unknown): value is WorldKind {
  return WORLDS.some((row) => row.kind === value);
}

/** A kind's row, seen with any descriptor of the table (each row is only ever given descriptors of its own kind). */
export function worldKind(kind: WorldKind): WorldKindSpec<WorldDescriptor> {
  return WORLDS.find((row) => row.kind === kind)! as WorldKindSpec<DescriptorBase> as WorldKindSpec<WorldDescriptor>;
}

/** The kinds that read a setting, in the table's order. */
export function kindsReading(field: keyof WorldSettings): WorldKind[] {
  return WORLDS.filter((row) => field === 'seed' || row.reads.includes(field)).map((row) => row.kind);
}

/** A project config's `world`: `kind`, then the settings that kind's row lets a config give. */
export const WorldConfig = z.discriminatedUnion(
  'kind',
  WORLDS.map((row) => z.strictObject({ kind: z.literal(row.kind), ...row.config })) as unknown as [
    z.ZodObject,
    ...z.ZodObject[],
  ],
) as unknown as z.ZodType<{ kind: WorldKind } & Partial<WorldSettings>>;

/** The keys a config's world of this kind may hold, for "did you mean". */
export function worldConfigKeys(kind: WorldKind): string[] {
  return ['kind', ...Object.keys(worldKind(kind).config)];
}
