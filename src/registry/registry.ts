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
}

/**
 * The table of contents between plans and bodies: the only place verbs are
 * bound to capabilities. Several versions of a verb may be live at once.
 */
export class CapabilityRegistry {
  private readonly byVerb = new Map<string, AnyCapabilitySpec[]>();

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
    const spec =
      range === undefined ? this.newestStable(versions) : versions.find((s) => semver.satisfies(s.version, range));
    if (!spec) {
      const available = versions.map((s) => s.version);
      return {
        ok: false,
        code: 'version_unsatisfied',
        message: `no version of "${verb}" satisfies "${range}"; available: ${available.join(', ')}`,
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
      })),
    );
  }

  private newestStable(versions: readonly AnyCapabilitySpec[]): AnyCapabilitySpec | undefined {
    const stable = versions.filter((s) => semver.prerelease(s.version) === null);
    return stable.find((s) => !s.deprecated) ?? stable[0] ?? versions[0];
  }
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
