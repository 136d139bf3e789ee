import { describe, expect, it } from 'vitest';
import { FaultSpecError, parseFaultSpec, parseFaultSpecs } from '../../src/world/faults/index.js';

describe('parseFaultSpec', () => {
  it('parses verb targets and maps them to the actuators they use', () => {
    expect(parseFaultSpec('navigate=hang')).toEqual({
      spec: 'navigate=hang',
      target: 'navigate',
      targetKind: 'verb',
      actuators: ['goto'],
      fault: { kind: 'hang' },
    });
    expect(parseFaultSpec('pillar_up=wrong_effects').actuators).toEqual(['place', 'move']);
    expect(parseFaultSpec('collect_drops=partial').fault).toEqual({ kind: 'partial', afterMs: 1000 });
  });

  it('parses actuator targets and every parameter form', () => {
    expect(
      parseFaultSpecs([
        'dig=flaky:0.3',
        'craft=slow:500',
        'goto=reject:no_path',
        'place=throw',
        'move=partial:250',
        'consume=flaky:1:runner_error',
      ]),
    ).toMatchObject([
      { target: 'dig', targetKind: 'actuator', actuators: ['dig'], fault: { kind: 'flaky', probability: 0.3 } },
      { fault: { kind: 'slow', delayMs: 500 } },
      { fault: { kind: 'reject', code: 'no_path' } },
      { fault: { kind: 'throw' } },
      { fault: { kind: 'partial', afterMs: 250 } },
      { fault: { kind: 'flaky', probability: 1, code: 'runner_error' } },
    ]);
    expect(parseFaultSpec('dig_block=flaky:0.3').fault).toEqual({ kind: 'flaky', probability: 0.3 });
    expect(parseFaultSpec('craft_item=slow:500').fault).toEqual({ kind: 'slow', delayMs: 500 });
  });

  it('accepts extra verbs as runner-level targets', () => {
    expect(parseFaultSpec('gather_wood=never_actuates', { extraVerbs: ['gather_wood'] })).toMatchObject({
      targetKind: 'verb',
      actuators: [],
    });
  });

  it.each([
    ['navigate', /expected <verb or actuator>=<fault>/],
    ['navigat=hang', /unknown target "navigat".*navigate.*goto/],
    ['navigate=hung', /unknown fault "hung"; valid faults: hang, hang_ignoring_abort, throw/],
    ['dig_block=flaky', /flaky needs a probability/],
    ['dig_block=flaky:1.5', /flaky probability must be a number in \[0, 1\], got "1.5"/],
    ['craft_item=slow', /slow needs a delay in ms/],
    ['craft_item=slow:-1', /slow delay must be a number/],
    ['navigate=hang:5', /hang takes no parameter/],
    ['navigate=reject:oops', /"oops" is not a failure code/],
    ['goto=never_actuates', /needs a verb, not the actuator "goto"/],
  ])('rejects %s with a clear error', (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(FaultSpecError);
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });
});
