import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { readWorldMarker } from '../world/embedded/world-folder.js';

/*
 * Which world a plan ran in, journaled with the plan so a resume can tell
 * whether it is about to act in the same one. A SimWorld is its seed and its
 * scenario's content; an embedded world is the folder it is kept in and the id
 * written there when it was made; a remote world is the server and the bot's
 * name (verbtree cannot look inside it).
 */

const ScenarioRef = z.strictObject({ path: z.string(), sha256: z.string() });
export type ScenarioRef = z.infer<typeof ScenarioRef>;

const common = { identity: z.string(), seed: z.int() };

export const WorldDescriptor = z.discriminatedUnion('world', [
  z.strictObject({ world: z.literal('sim'), ...common, scenario: ScenarioRef.optional() }),
  z.strictObject({
    world: z.literal('embedded'),
    ...common,
    scenario: ScenarioRef.optional(),
    /** Null: the world lived in the server's memory and ended with it. */
    worldFolder: z.string().nullable(),
    worldId: z.string().nullable(),
    /** A folder verbtree made for the plan (under the journal's worlds/), which a restart may empty. */
    managed: z.boolean(),
    username: z.string(),
    version: z.string(),
    isolate: z.boolean(),
  }),
  z.strictObject({
    world: z.literal('remote'),
    ...common,
    host: z.string(),
    port: z.int(),
    username: z.string(),
    version: z.string(),
  }),
]);
export type WorldDescriptor = z.infer<typeof WorldDescriptor>;

export function scenarioRef(path: string): ScenarioRef {
  const absolute = resolve(path);
  return { path: absolute, sha256: sha256Of(absolute) ?? 'missing' };
}

function sha256Of(path: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return null;
  }
}

const short = (hash: string) => hash.slice(0, 12);

/**
 * Why the world a descriptor names cannot be reopened as the one the plan ran
 * in, or null when it can: a sim scenario file changed or gone (its rebuild
 * would differ), an embedded world kept only in memory, its folder gone or
 * holding another world. A remote server is trusted to be the same.
 */
export function notTheSameWorld(descriptor: WorldDescriptor): string | null {
  switch (descriptor.world) {
    case 'sim': {
      if (!descriptor.scenario) return null;
      const now = sha256Of(descriptor.scenario.path);
      if (now === descriptor.scenario.sha256) return null;
      return now === null
        ? `its scenario file ${descriptor.scenario.path} is gone, so the SimWorld it ran in cannot be rebuilt`
        : `its scenario file ${descriptor.scenario.path} changed since the plan ran (sha256 ${short(descriptor.scenario.sha256)} then, ${short(now)} now), so a rebuilt SimWorld would be another world`;
    }
    case 'embedded': {
      if (descriptor.worldFolder === null || descriptor.worldId === null)
        return 'its embedded world was kept in memory only and ended with the process that ran it';
      const marker = readWorldMarker(descriptor.worldFolder);
      if (!marker) return `its world folder ${descriptor.worldFolder} is gone (or holds no verbtree world)`;
      if (marker.worldId !== descriptor.worldId)
        return `its world folder ${descriptor.worldFolder} now holds another world (id ${marker.worldId}, the plan ran in ${descriptor.worldId})`;
      return null;
    }
    case 'remote':
      return null;
  }
}

/** How to open a world again, read leniently from whatever a journal holds (an older verbtree journaled less). */
export function choiceOf(raw: unknown): {
  world?: 'sim' | 'embedded' | 'remote';
  seed?: number;
  scenario?: string;
  host?: string;
  port?: number;
  username?: string;
  version?: string;
  isolate?: boolean;
  worldFolder?: string | null;
  managed?: boolean;
} {
  if (!raw || typeof raw !== 'object') return {};
  const r = raw as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const int = (v: unknown) => (Number.isInteger(v) ? (v as number) : undefined);
  const scenario = text(r.scenario) ?? text((r.scenario as { path?: unknown } | undefined)?.path);
  const world = r.world === 'sim' || r.world === 'embedded' || r.world === 'remote' ? r.world : undefined;
  const picked = {
    world,
    seed: int(r.seed),
    scenario,
    host: text(r.host),
    port: int(r.port),
    username: text(r.username),
    version: text(r.version),
    isolate: r.isolate === true ? true : undefined,
    worldFolder: text(r.worldFolder),
    managed: typeof r.managed === 'boolean' ? r.managed : undefined,
  };
  return Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined));
}
