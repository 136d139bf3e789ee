import { isWorldKind, worldKind, type WorldDescriptor, type WorldKind } from './worlds.js';
import type { WorldSettings } from './worlds/kind.js';

/*
 * Which world a plan ran in, journaled with the plan so a resume can tell whether it is about to act in the same
 * one. What identifies a world is its kind's (its row's `descriptor` in `src/cli/worlds.ts`): a SimWorld is its seed
 * and its scenario's content; an embedded world is the folder it is kept in and the id written there when it was
 * made; a remote world is the server and the bot's name (verbtree cannot look inside it).
 */
/** Why the world a descriptor names cannot be reopened as the one the plan ran in, or null when it can. */
export function notTheSameWorld(descriptor: WorldDescriptor): string | null {
  return worldKind(descriptor.world).notTheSame(descriptor);
}

/** When the world a descriptor names was last saved to disk, for a kind that keeps one there. */
export function worldSavedAt(descriptor: WorldDescriptor): number | undefined {
  return worldKind(descriptor.world).savedAt?.(descriptor);
}

type JournaledSettings = Partial<Omit<WorldSettings, 'worldFolder'>> & {
  world?: WorldKind;
  worldFolder?: string;
  managed?: boolean;
};

/** How to open a world again, read leniently from whatever a journal holds (an older verbtree journaled less). */
export function choiceOf(raw: unknown): JournaledSettings {
  if (!raw || typeof raw !== 'object') return {};
  const r = raw as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const int = (v: unknown) => (Number.isInteger(v) ? (v as number) : undefined);
  const scenario = text(r.scenario) ?? text((r.scenario as { path?: unknown } | undefined)?.path);
  const picked = {
    world: isWorldKind(r.world) ? r.world : undefined,
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
