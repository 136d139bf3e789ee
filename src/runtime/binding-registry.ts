import type { LeafArity, TreeAction, TreeBindings, TreeCondition } from '../registry/capability-spec.js';
import { closestMatch } from '../registry/suggest.js';
import { RESERVED_NAMES } from './intrinsics.js';

export class BindingError extends Error {
  override name = 'BindingError';
}

interface Bound<F> {
  fn: F;
  owner: string;
  arity?: LeafArity;
}

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

function validArity(arity: LeafArity): boolean {
  const [min, max] = typeof arity === 'number' ? [arity, arity] : arity;
  return Number.isInteger(min) && Number.isInteger(max) && min >= 0 && min <= max;
}

/** "takes 1 argument", "takes 1 to 2 arguments": how lint names an arity. */
export function describeArity(arity: LeafArity): string {
  const [min, max] = typeof arity === 'number' ? [arity, arity] : arity;
  const count = min === max ? String(min) : `${min} to ${max}`;
  return `takes ${count} argument${min === 1 && max === 1 ? '' : 's'}`;
}

export function arityAllows(arity: LeafArity, count: number): boolean {
  const [min, max] = typeof arity === 'number' ? [arity, arity] : arity;
  return count >= min && count <= max;
}

/**
 * The one place tree leaves are bound to code (BehaviorTree.CPP's factory):
 * every action and condition a tree calls resolves here by name, and a run's
 * mistreevous agent is built only from it.
 */
export class BindingRegistry {
  private readonly actions = new Map<string, Bound<TreeAction>>();
  private readonly conditions = new Map<string, Bound<TreeCondition>>();

  /** `arity`, when given, is how many arguments trees must pass (lint checks it). */
  registerAction(name: string, fn: TreeAction, owner = 'runtime', arity?: LeafArity): this {
    if (this.actions.get(name)?.fn === fn) return this;
    this.checkName(name, owner, arity);
    this.actions.set(name, { fn, owner, ...(arity !== undefined ? { arity } : {}) });
    return this;
  }

  registerCondition(name: string, fn: TreeCondition, owner = 'runtime', arity?: LeafArity): this {
    if (this.conditions.get(name)?.fn === fn) return this;
    this.checkName(name, owner, arity);
    this.conditions.set(name, { fn, owner, ...(arity !== undefined ? { arity } : {}) });
    return this;
  }

  /** Registers a group of leaves, e.g. a capability's `bindings`. */
  register(bindings: TreeBindings<never>, owner: string): this {
    const actions = Object.entries(bindings.actions ?? {});
    const conditions = Object.entries(bindings.conditions ?? {});
    for (const name of Object.keys(bindings.arity ?? {})) {
      if (!actions.some(([leaf]) => leaf === name) && !conditions.some(([leaf]) => leaf === name)) {
        const hint = closestMatch(
          name,
          [...actions, ...conditions].map(([leaf]) => leaf),
        );
        throw new BindingError(
          `${owner}: arity given for "${name}", which it does not bind${hint ? ` (did you mean "${hint}"?)` : ''}`,
        );
      }
    }
    for (const [name, fn] of actions) this.registerAction(name, fn as TreeAction, owner, bindings.arity?.[name]);
    for (const [name, fn] of conditions)
      this.registerCondition(name, fn as TreeCondition, owner, bindings.arity?.[name]);
    return this;
  }

  /**
   * Registers the leaves a capability spec declares in `bindings` (no-op when it declares none).
   * Versions of a capability that share the same functions may all be registered.
   */
  registerCapability(spec: { name: string; version: string; bindings?: TreeBindings<never> }): this {
    if (spec.bindings) this.register(spec.bindings, `${spec.name}@${spec.version}`);
    return this;
  }

  action(name: string): TreeAction | undefined {
    return this.actions.get(name)?.fn;
  }

  condition(name: string): TreeCondition | undefined {
    return this.conditions.get(name)?.fn;
  }

  actionNames(): string[] {
    return [...this.actions.keys()].sort();
  }

  conditionNames(): string[] {
    return [...this.conditions.keys()].sort();
  }

  ownerOf(name: string): string | undefined {
    return (this.actions.get(name) ?? this.conditions.get(name))?.owner;
  }

  /** How many arguments the leaf takes, when its binding declared it. */
  arityOf(name: string): LeafArity | undefined {
    return (this.actions.get(name) ?? this.conditions.get(name))?.arity;
  }

  private checkName(name: string, owner: string, arity: LeafArity | undefined): void {
    if (arity !== undefined && !validArity(arity))
      throw new BindingError(
        `${owner}: arity of "${name}" must be a whole number or [min, max] with 0 <= min <= max, got ${JSON.stringify(arity)}`,
      );
    if (!NAME_PATTERN.test(name))
      throw new BindingError(
        `${owner}: leaf name "${name}" must be an identifier (letters, digits, _), as trees call it unquoted`,
      );
    if (RESERVED_NAMES.includes(name))
      throw new BindingError(
        `${owner}: leaf name "${name}" is reserved by the runtime (${RESERVED_NAMES.join(', ')}); pick another name`,
      );
    const existing = this.ownerOf(name);
    if (existing !== undefined)
      throw new BindingError(
        `${owner}: leaf "${name}" is already bound by ${existing}; leaf names are global, prefix yours (e.g. "${owner.split('@')[0]}_${name}")`,
      );
  }
}
