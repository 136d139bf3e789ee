import { type AnyCapabilitySpec, CapabilityRegistry } from '../src/index.js';
import navigate from './navigate/index.js';

/** Every capability this build ships. Adding a verb means adding its folder and one line here. */
export const builtinCapabilities: AnyCapabilitySpec[] = [navigate];

export function createDefaultRegistry(): CapabilityRegistry {
  const registry = new CapabilityRegistry();
  for (const spec of builtinCapabilities) registry.register(spec);
  return registry;
}
