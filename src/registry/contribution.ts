import type { AnyCapabilitySpec } from './capability-spec.js';
import type { CapabilityRegistry } from './registry.js';

/**
 * Registers what a capability module exports: its default export (or `capabilities` export), an array of
 * capabilities or a function (registry) => void. Throws, naming the fix, when it is neither. `module`, the file it
 * was imported from, is noted in `registry.modules`.
 */
export async function registerContribution(
  registry: CapabilityRegistry,
  exports: Record<string, unknown>,
  module?: string,
): Promise<void> {
  const contribution = exports.default ?? exports.capabilities;
  if (typeof contribution === 'function') await (contribution as (registry: CapabilityRegistry) => unknown)(registry);
  else if (Array.isArray(contribution)) for (const spec of contribution as AnyCapabilitySpec[]) registry.register(spec);
  else
    throw new Error(
      'export default (or export const capabilities) an array of capabilities, or a function (registry) => void',
    );
  if (module !== undefined) registry.modules.push(module);
}
