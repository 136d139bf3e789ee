import { createDefaultRegistry } from '../../capabilities/index.js';
import type { Journal } from '../../src/journal/journal.js';
import type { VersionRun } from '../../src/registry/canary-sla.js';
import type { CapabilityRegistry } from '../../src/registry/registry.js';

/** The default registry with a canary of navigate (9.0.0) beside its stable 1.0.0. */
export function registryWithCanary(): CapabilityRegistry {
  const registry = createDefaultRegistry();
  const stable = registry.resolve('navigate');
  if (!stable.ok) throw new Error(stable.message);
  return registry.register({ ...stable.spec, version: '9.0.0', canary: true });
}

/** A run of navigate at `version` on SimWorld, real or shadow, ok or failed, of 1 s. */
export const navigateRun = (version: string, shadow: boolean, ok: boolean): VersionRun => ({
  verb: 'navigate',
  version,
  worldKind: 'sim',
  shadow,
  ok,
  code: ok ? null : 'acceptance_failed',
  ttfaMs: 5,
  durationMs: 1000,
  damage: 0,
  at: 0,
});

/** `count` real runs of navigate 1.0.0 and as many shadow runs of its canary 9.0.0 (ok or not), kept in `journal`. */
export async function journalCanaryRuns(
  journal: Pick<Journal, 'recordVersionRun'>,
  count: number,
  canaryOk: boolean,
): Promise<void> {
  for (let i = 0; i < count; i++) {
    await journal.recordVersionRun(navigateRun('1.0.0', false, true));
    await journal.recordVersionRun(navigateRun('9.0.0', true, canaryOk));
  }
}
