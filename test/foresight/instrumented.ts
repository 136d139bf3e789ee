import { CORE_ACTUATORS, OPTIONAL_ACTUATORS, type WorldPort } from '../../src/contracts/world.js';

/** The world, with every actuator call (goto, dig, place, attack, ... and stopMovement) recorded in `calls`. */
export function recordingActuators<W extends WorldPort>(world: W): { world: W; calls: string[] } {
  const calls: string[] = [];
  const actuators = new Set<string>([...CORE_ACTUATORS, ...OPTIONAL_ACTUATORS, 'stopMovement']);
  const recorded = new Proxy(world, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (typeof key === 'string' && actuators.has(key)) calls.push(key);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { world: recorded, calls };
}
