import type { TreeAction, TreeBindings, TreeCondition } from '../registry/capability-spec.js';
import { RESERVED_NAMES } from './intrinsics.js';

export class BindingError extends Error {
  override name = 'BindingError';
}

interface Bound<F> {
  fn: F;
  owner: string;
}

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The one place tree leaves are bound to code (BehaviorTree.CPP's factory):
 * every action and condition a tree calls resolves here by name, and a run's
 * mistreevous agent is built only from it.
 */
export class BindingRegistry {
  private readonly actions = new Map<string, Bound<TreeAction>>();
  private readonly conditions = new Map<string, Bound<TreeCondition>>();

  registerAction(name: string, fn: TreeAction, owner = 'runtime'): this {
    if (this.actions.get(name)?.fn === fn) return this;
    this.checkName(name, owner);
    this.actions.set(name, { fn, owner });
    return this;
  }

  registerCondition(name: string, fn: TreeCondition, owner = 'runtime'): this {
    if (this.conditions.get(name)?.fn === fn) return this;
    this.checkName(name, owner);
    this.conditions.set(name, { fn, owner });
    return this;
  }

  /** Registers a group of leaves, e.g. a capability's `bindings`. */
  register(bindings: TreeBindings<never>, owner: string): this {
    for (const [name, fn] of Object.entries(bindings.actions ?? {})) this.registerAction(name, fn as TreeAction, owner);
    for (const [name, fn] of Object.entries(bindings.conditions ?? {})) this.registerCondition(name, fn as TreeCondition, owner);
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

  private checkName(name: string, owner: string): void {
    if (!NAME_PATTERN.test(name)) throw new BindingError(`${owner}: leaf name "${name}" must be an identifier (letters, digits, _), as trees call it unquoted`);
    if (RESERVED_NAMES.includes(name)) throw new BindingError(`${owner}: leaf name "${name}" is reserved by the runtime (${RESERVED_NAMES.join(', ')}); pick another name`);
    const existing = this.ownerOf(name);
    if (existing !== undefined) throw new BindingError(`${owner}: leaf "${name}" is already bound by ${existing}; leaf names are global, prefix yours (e.g. "${owner.split('@')[0]}_${name}")`);
  }
}
