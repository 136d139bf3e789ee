import { describe, expect, it } from 'vitest';
import { FAILURE_CODES, isFailureCode, isRetryableByDefault } from '../../src/index.js';

const REQUIRED = [
  'unknown_verb',
  'version_unsatisfied',
  'schema_violation',
  'guard_failed',
  'precondition_missing',
  'ttfa_exceeded',
  'state_timeout',
  'stuck.loop',
  'deadline_exceeded',
  'effects_unmet',
  'runner_error',
  'aborted',
  'preempted',
  'duplicate_dispatch',
  'escalation_exhausted',
  'world_disconnected',
];

describe('failure codes', () => {
  it('include every code the specification names, each documented in one line', () => {
    for (const code of REQUIRED) expect(isFailureCode(code), code).toBe(true);
    for (const [code, { meaning }] of Object.entries(FAILURE_CODES)) {
      expect(meaning, code).toMatch(/^[A-Z].*\.$/);
      expect(meaning, code).not.toContain('\n');
    }
  });

  it('say which are retryable by default', () => {
    expect(isRetryableByDefault('stuck.loop')).toBe(true);
    expect(isRetryableByDefault('unknown_verb')).toBe(false);
    expect(isFailureCode('toString')).toBe(false);
  });
});
