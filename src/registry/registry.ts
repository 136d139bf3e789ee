import semver from 'semver';
import type { AnyCapabilitySpec } from './capability-spec.js';
import {
  CORE_ACTUATORS,
  OPTIONAL_ACTUATORS,
  type ActuatorName,
  type WorldPort,
  actuatorsOf,
} from '../contracts/world.js';
import { closestMatch } from './suggest.js';

export class RegistrationError extends Error {
  override name = 'RegistrationError';
}

export type Resolution =
  | { ok: true; spec: AnyCapabilitySpec; warnings: string[] }
  | { ok: false; code: 'unknown_verb'; message: string; suggestion?: string }
  | { ok: false; code: 'version_unsatisfied'; message: string; available: string[] };

export interface CapabilitySummary {
  name: string;
  version: string;
  description: string;
  deprecated?: string;
  runnable: boolean;
  tree?: string;
  /** A canary's stage: `shadow` (runs only on forks, never acts) or `promoted` (acts). */
  canary?: 'shadow' | 'promoted';
}

/** A verb's canary beside the stable version that acts while the canary runs in shadow. */
export interface CanaryEntry {
  verb: string;
  version: string;
  /** The newest stable (non-canary) version: the one that acts until the canary is promoted. */
  stable: string;
  promoted: boolean;
}

/**
 * The table of contents between plans and bodies: the only place verbs are
 * bound to capabilities. Several versions of a verb may be live at once.
 */
export class CapabilityRegistry {
  private readonly byVerb = new Map<string, AnyCapabilitySpec[]>();
  /** Canaries made to act, as `verb@version`. */
  private readonly promoted = new Set<string>();
  /** The capability modules registered into it (a project's), so a fork in a worker thread can register them too. */
  readonly modules: string[] = [];

  register(spec: AnyCapabilitySpec): this {
    const version = semver.valid(spec.version);
    if (!version) {
      throw new RegistrationError(`${spec.name}: version "${spec.version}" is not semver (expected e.g. "1.0.0")`);
    }
    const schemaProblem = notZod4(spec.inputSchema);
    if (schemaProblem) throw new RegistrationError(`${spec.name}@${version}: inputSchema ${schemaProblem}`);
    if (typeof spec.expect !== 'function' && typeof spec.acceptance !== 'function') {
      throw new RegistrationError(
        `${spec.name}@${version}: no way to verify its effects; give it expect(pre, args) (absolute expectations) or acceptance(pre, post, args)`,
      );
    }
    for (const actuator of spec.actuators ?? []) {
      if (
        (OPTIONAL_ACTUATORS as readonly string[]).includes(actuator) ||
        (CORE_ACTUATORS as readonly string[]).includes(actuator)
      )
        continue;
      const near = closestMatch(actuator, [...CORE_ACTUATORS, ...OPTIONAL_ACTUATORS]);
      throw new RegistrationError(
        `${spec.name}@${version}: actuators names "${actuator}", which no world has${near ? ` (did you mean "${near}"?)` : ''}; the actuators are ${[...CORE_ACTUATORS, ...OPTIONAL_ACTUATORS].join(', ')}`,
      );
    }
    const versions = this.byVerb.get(spec.name) ?? [];
    if (versions.some((existing) => semver.eq(existing.version, version))) {
      throw new RegistrationError(
        `${spec.name}@${version} is already registered; bump the version to register a new one`,
      );
    }
    if (spec.canary) checkCanary(spec.name, version, versions);
    versions.push(spec);
    versions.sort((a, b) => semver.rcompare(a.version, b.version));
    this.byVerb.set(spec.name, versions);
    return this;
  }

  has(verb: string): boolean {
    return this.byVerb.has(verb);
  }

  verbs(): string[] {
    return [...this.byVerb.keys()].sort();
  }

  versions(verb: string): readonly AnyCapabilitySpec[] {
    return this.byVerb.get(verb) ?? [];
  }

  /** The newest version matching `range`; without a range, the newest stable (non-prerelease, not deprecated) one. */
  resolve(verb: string, range?: string): Resolution {
    const versions = this.byVerb.get(verb);
    if (!versions) {
      const suggestion = closestMatch(verb, this.verbs());
      const hint = suggestion ? `; did you mean "${suggestion}"?` : `; registered verbs: ${this.verbs().join(', ')}`;
      return {
        ok: false,
        code: 'unknown_verb',
        message: `unknown verb "${verb}"${hint}`,
        ...(suggestion ? { suggestion } : {}),
      };
    }
    const acting = versions.filter((s) => this.acts(s));
    const spec =
      range === undefined ? this.newestStable(acting) : acting.find((s) => semver.satisfies(s.version, range));
    if (!spec) {
      const available = acting.map((s) => s.version);
      const canary = versions.find((s) => !this.acts(s) && range !== undefined && semver.satisfies(s.version, range));
      const why = canary
        ? `${verb}@${canary.version} is a canary: it runs only in shadow until promoted (verbtree registry promote ${verb}@${canary.version})`
        : `no version of "${verb}" satisfies "${range}"`;
      return {
        ok: false,
        code: 'version_unsatisfied',
        message: `${why}; available: ${available.join(', ')}`,
        available,
      };
    }
    const warnings = spec.deprecated ? [`${spec.name}@${spec.version} is deprecated: ${spec.deprecated}`] : [];
    return { ok: true, spec, warnings };
  }

  summaries(): CapabilitySummary[] {
    return this.verbs().flatMap((verb) =>
      this.versions(verb).map((spec) => ({
        name: spec.name,
        version: spec.version,
        description: spec.description,
        ...(spec.deprecated ? { deprecated: spec.deprecated } : {}),
        runnable: spec.tree !== undefined,
        ...(spec.tree ? { tree: spec.tree } : {}),
        ...(spec.canary ? { canary: this.acts(spec) ? ('promoted' as const) : ('shadow' as const) } : {}),
      })),
    );
  }

  /** The verb's canary that runs in shadow now (registered, not promoted); undefined when it has none. */
  canaryOf(verb: string): AnyCapabilitySpec | undefined {
    return this.versions(verb).find((spec) => !this.acts(spec));
  }

  /** Every canary, promoted or not, beside the stable version it was registered against. */
  canaries(): CanaryEntry[] {
    return this.verbs().flatMap((verb) =>
      this.versions(verb)
        .filter((spec) => spec.canary)
        .map((spec) => ({
          verb,
          version: spec.version,
          stable: this.newestStable(this.versions(verb).filter((s) => !s.canary))!.version,
          promoted: this.acts(spec),
        })),
    );
  }

  /**
   * Makes a canary the version that acts (as `resolve(verb)` answers it). Refuses, naming the fix, a verb or version
   * the registry does not hold and a version that is no canary.
   */
  promote(verb: string, version: string): AnyCapabilitySpec {
    const versions = this.byVerb.get(verb);
    if (!versions) {
      const near = closestMatch(verb, this.verbs());
      throw new RegistrationError(
        `promote ${verb}@${version}: unknown verb "${verb}"${near ? `; did you mean "${near}"?` : `; registered verbs: ${this.verbs().join(', ')}`}`,
      );
    }
    const spec = semver.valid(version) ? versions.find((s) => semver.eq(s.version, version)) : undefined;
    const canaries = versions.filter((s) => s.canary).map((s) => `${verb}@${s.version}`);
    const listed = canaries.length ? `its canaries: ${canaries.join(', ')}` : `it has no canary`;
    if (!spec)
      throw new RegistrationError(
        `promote ${verb}@${version}: ${verb} has no version "${version}" (versions: ${versions.map((s) => s.version).join(', ')}; ${listed})`,
      );
    if (!spec.canary)
      throw new RegistrationError(
        `promote ${verb}@${version}: ${verb}@${spec.version} is not a canary, so there is nothing to promote (${listed})`,
      );
    this.promoted.add(`${verb}@${spec.version}`);
    return spec;
  }

  private acts(spec: AnyCapabilitySpec): boolean {
    return !spec.canary || this.promoted.has(`${spec.name}@${spec.version}`);
  }

  private newestStable(versions: readonly AnyCapabilitySpec[]): AnyCapabilitySpec | undefined {
    const stable = versions.filter((s) => semver.prerelease(s.version) === null);
    return stable.find((s) => !s.deprecated) ?? stable[0] ?? versions[0];
  }
}

/**
 * A canary needs a stable version of its verb registered first (the one that acts meanwhile), must be newer than it,
 * and is the verb's only canary.
 */
function checkCanary(verb: string, version: string, versions: readonly AnyCapabilitySpec[]): void {
  const at = `${verb}@${version}: canary: true`;
  const other = versions.find((s) => s.canary);
  if (other)
    throw new RegistrationError(
      `${at}, but ${verb}@${other.version} is already its canary; a verb has one canary at a time (remove one, or drop canary from it)`,
    );
  const stable = versions.filter((s) => semver.prerelease(s.version) === null && !s.deprecated);
  const newest = stable[0] ?? versions[0];
  if (!newest)
    throw new RegistrationError(
      `${at}, but no stable version of "${verb}" is registered to act beside it; register the stable version first (a canary never acts until promoted)`,
    );
  if (!semver.gt(version, newest.version))
    throw new RegistrationError(
      `${at}, but it is not newer than the stable ${verb}@${newest.version}; give it a version above ${newest.version}`,
    );
}

/**
 * Every registered capability whose `actuators` the world lacks, as one line
 * each naming the capability, what it needs and what the world provides; empty
 * when the world can run them all.
 */
export function missingActuators(registry: CapabilityRegistry, world: WorldPort): string[] {
  const provided: readonly ActuatorName[] = actuatorsOf(world);
  const problems: string[] = [];
  for (const verb of registry.verbs()) {
    for (const spec of registry.versions(verb)) {
      const lacking = (spec.actuators ?? []).filter((name) => !provided.includes(name));
      if (lacking.length > 0) {
        problems.push(
          `${spec.name}@${spec.version} needs the ${lacking.join(', ')} actuator${lacking.length > 1 ? 's' : ''}, which the ${world.kind} world does not provide (it provides ${provided.join(', ')})`,
        );
      }
    }
  }
  return problems;
}

/**
 * Why a schema is not one verbtree can use, or null. verbtree validates with zod 4; a zod 3 schema (a
 * project with zod 3 at its root) would be accepted here and reject every plan later with
 * "keyValidator._parse is not a function", so it is refused now, naming the fix.
 */
function notZod4(schema: unknown): string | null {
  if (typeof schema !== 'object' || schema === null) return 'is not a zod schema';
  if ('_zod' in schema) return null;
  if ('_def' in schema && 'safeParse' in schema) {
    return 'comes from zod 3; verbtree needs zod 4 schemas (npm install zod@^4, or import { z } from "zod/v4" with zod 3.25)';
  }
  return 'is not a zod schema (build it with zod 4: import { z } from "zod")';
}
