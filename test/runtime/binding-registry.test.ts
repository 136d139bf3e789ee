import { describe, expect, test } from 'vitest';
import { BindingError, BindingRegistry, createBindingRegistry } from '../../src/runtime/index.js';

describe('BindingRegistry', () => {
  test('binds capability leaves by name; versions sharing functions register once', () => {
    const hold = () => true;
    const near = () => true;
    const bindings = { actions: { dig_hold_tool: hold }, conditions: { dig_in_reach: near } };
    const registry = new BindingRegistry()
      .registerCapability({ name: 'dig_block', version: '1.0.0', bindings })
      .registerCapability({ name: 'dig_block', version: '1.1.0', bindings })
      .registerCapability({ name: 'navigate', version: '1.0.0' });
    expect(registry.action('dig_hold_tool')).toBe(hold);
    expect(registry.condition('dig_in_reach')).toBe(near);
    expect(registry.ownerOf('dig_hold_tool')).toBe('dig_block@1.0.0');
  });

  test('refuses a second, different leaf under a taken name, a reserved name, or a name trees cannot call', () => {
    const registry = createBindingRegistry();
    expect(() => registry.registerAction('goto', () => true, 'navigate@2.0.0')).toThrow(
      new BindingError(
        'navigate@2.0.0: leaf "goto" is already bound by world; leaf names are global, prefix yours (e.g. "navigate_goto")',
      ),
    );
    expect(() => registry.registerAction('backoff', () => true, 'x@1.0.0')).toThrow(/reserved by the runtime/);
    expect(() => registry.registerCondition('in-reach', () => true, 'x@1.0.0')).toThrow(/must be an identifier/);
  });
});
