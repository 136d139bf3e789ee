import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { isPostgresUrl } from '../journal/journal-spec.js';
import { CanaryConfig } from '../registry/canary-sla.js';
import { registerContribution } from '../registry/contribution.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { SafetyOverride } from '../contracts/plan-step.js';
import { fromZodIssues } from '../validate/zod-issues.js';
import { CliUsageError } from './io.js';
import { HeadroomConfig } from './worker/headroom.js';
import { readJsonFile } from './read-json.js';
import { isWorldKind, WorldConfig, worldConfigKeys } from './worlds.js';

/** Looked for in this order in each folder from the working directory up. */
export const CONFIG_FILE_NAMES = [
  'verbtree.config.ts',
  'verbtree.config.mjs',
  'verbtree.config.js',
  'verbtree.config.json',
] as const;

const path = z.string().min(1);

/** A project's verbtree.config: every path in it is relative to the config file. */
export const ProjectConfigSchema = z.strictObject({
  /**
   * Modules whose default export (or `capabilities` export) is an array of capabilities or a function (registry) =>
   * void.
   */
  capabilities: z.array(path).optional(),
  /** Tree folders (or files) loaded beside the built-in trees, never in place of them. */
  trees: z.array(path).optional(),
  /** The world `run` and `serve` use when the command line names none: a kind of the table of worlds (worlds.ts). */
  world: WorldConfig.optional(),
  /** Stuck detection and recovery settings (JSON, as `run --stuck-config` reads them). */
  stuckConfig: path.optional(),
  /** The journal every journal-reading command and `run --journal` use: a SQLite file, or a postgres:// URL. */
  journal: path.optional(),
  /** Canaries (docs/foresight.md): the promotion rule, and the ones the project makes act (`<verb>@<version>`). */
  canaries: CanaryConfig.optional(),
  /** How `run`, `serve` and `mcp` bots answer hostiles (their --combat and --fight-health-floor; docs/defense.md). */
  safety: SafetyOverride.optional(),
  /** `verbtree worker`: the headroom past which it claims no more bots and starts no more plans (docs/fleet.md). */
  worker: z.strictObject({ headroom: HeadroomConfig.optional() }).optional(),
  api: z
    .strictObject({
      tokenEnv: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name, e.g. "BOT_API_TOKEN"'),
    })
    .optional(),
});
export type ProjectConfig = z.infer<typeof ProjectConfigSchema>;

/** A loaded project: its config with every path made absolute, and the registry its capability modules fill. */
export interface Project {
  file: string;
  config: ProjectConfig;
  registry: CapabilityRegistry;
}

/** The nearest config file from `cwd` upward; two config files in one folder are refused. */
export function findProjectConfig(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const found = CONFIG_FILE_NAMES.filter((name) => existsSync(join(dir, name)));
    if (found.length > 1) throw new CliUsageError(`${dir} holds ${found.join(' and ')}: keep one verbtree config file`);
    if (found[0]) return join(dir, found[0]);
    if (dirname(dir) === dir) return undefined;
  }
}

/** Loads the config named by `--config`, or the nearest one found from `cwd` up; undefined when there is none. */
export async function loadProject(cwd: string, explicit?: string): Promise<Project | undefined> {
  const file = explicit === undefined ? findProjectConfig(cwd) : resolve(cwd, explicit);
  if (file === undefined) return undefined;
  if (!existsSync(file)) throw new CliUsageError(`--config ${explicit}: no such file`);
  const config = resolvePaths(parseConfig(file, await readConfig(file)), file);
  const registry = createDefaultRegistry();
  for (const module of config.capabilities ?? []) await addCapabilities(registry, module, file);
  for (const [i, ref] of (config.canaries?.promote ?? []).entries()) {
    const [verb, version] = ref.split('@') as [string, string];
    try {
      registry.promote(verb, version);
    } catch (error) {
      throw new CliUsageError(`${file}: config.canaries.promote[${i}]: ${firstLine(error)}`);
    }
  }
  return { file, config, registry };
}

async function readConfig(file: string): Promise<unknown> {
  if (file.endsWith('.json')) return readJsonFile(file);
  const exports = await importModule(file, `config ${file}`);
  if (!('default' in exports))
    throw new CliUsageError(
      `${file} has no default export: write export default { capabilities: [...], trees: [...] }`,
    );
  return exports.default;
}

function parseConfig(file: string, input: unknown): ProjectConfig {
  const parsed = ProjectConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const [first] = fromZodIssues(parsed.error.issues, input, ['config'], (at) => keysAt(at, input));
  const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more)` : '';
  throw new CliUsageError(`${file}: ${first!.where}: ${first!.message}${more}`);
}

/** The keys allowed where an issue points, for "did you mean": the config's own, or the chosen world kind's. */
function keysAt(at: readonly PropertyKey[], input: unknown): string[] {
  if (at.length === 0) return Object.keys(ProjectConfigSchema.shape);
  if (at[0] === 'api') return ['tokenEnv'];
  if (at[0] === 'worker') return at.length === 1 ? ['headroom'] : Object.keys(HeadroomConfig.shape);
  if (at[0] === 'canaries') return at.length === 1 ? ['rule', 'promote'] : ['minRuns', 'p95MarginPct'];
  const kind = (input as { world?: { kind?: unknown } }).world?.kind;
  return at[0] === 'world' && isWorldKind(kind) ? worldConfigKeys(kind) : [];
}

function resolvePaths(config: ProjectConfig, file: string): ProjectConfig {
  const at = (p: string) => resolve(dirname(file), p);
  for (const [i, folder] of (config.trees ?? []).entries()) {
    if (!existsSync(at(folder)))
      throw new CliUsageError(
        `${file}: config.trees[${i}]: "${folder}" does not exist (resolved to ${at(folder)}); paths are relative to the config file`,
      );
  }
  const world =
    config.world && 'scenario' in config.world && config.world.scenario
      ? { ...config.world, scenario: at(config.world.scenario) }
      : config.world;
  return {
    ...config,
    ...(config.capabilities ? { capabilities: config.capabilities.map(at) } : {}),
    ...(config.trees ? { trees: config.trees.map(at) } : {}),
    ...(world ? { world } : {}),
    ...(config.stuckConfig ? { stuckConfig: at(config.stuckConfig) } : {}),
    // A SQLite path is relative to the config file; a postgres:// URL names a database wherever it is.
    ...(config.journal ? { journal: isPostgresUrl(config.journal) ? config.journal : at(config.journal) } : {}),
  };
}

/** Registers what one capability module exports; every failure names the module and the config that lists it. */
async function addCapabilities(registry: CapabilityRegistry, module: string, configFile: string): Promise<void> {
  const named = `capability module ${relativeTo(configFile, module)} (listed in ${basename(configFile)})`;
  if (!existsSync(module))
    throw new CliUsageError(`${named} does not exist (resolved to ${module}); paths are relative to the config file`);
  const exports = await importModule(module, named);
  try {
    await registerContribution(registry, exports, module);
  } catch (error) {
    throw new CliUsageError(`${named}: ${firstLine(error)}`);
  }
}

/**
 * Imports a JS or TypeScript module; Node 20 cannot import .ts itself, so that goes through tsx when it is installed.
 */
async function importModule(file: string, named: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  let load: () => Promise<Record<string, unknown>> = () => import(url) as Promise<Record<string, unknown>>;
  if (/\.[cm]?ts$/.test(file)) {
    const tsx = await import('tsx/esm/api').catch(() => undefined);
    if (!tsx)
      throw new CliUsageError(
        `${named} is TypeScript, which Node cannot import without tsx: rename it to .mjs, or install tsx (npm install --save-dev tsx)`,
      );
    // Outside a "type": "module" package tsx compiles to CommonJS: the namespace's default is then the whole module.
    load = async () => {
      const namespace = (await tsx.tsImport(url, import.meta.url)) as Record<string, unknown>;
      const inner = namespace.default as { __esModule?: boolean } | undefined;
      return inner?.__esModule ? inner : namespace;
    };
  }
  try {
    return await load();
  } catch (error) {
    throw new CliUsageError(`${named} failed to load: ${firstLine(error)}`);
  }
}

function firstLine(error: unknown): string {
  const text =
    error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return text.split('\n')[0]!;
}

function relativeTo(configFile: string, file: string): string {
  const rel = relative(dirname(configFile), file);
  return isAbsolute(rel) || rel.startsWith('..') ? file : `./${rel}`;
}
