import type { WorldPort } from '../contracts/world.js';
import { wrapActuators } from '../world/wrap-actuators.js';

export interface ActuatorListener {
  started(command: string): void;
  /** `error`: what the command failed with, when it failed. */
  settled(command: string, error?: unknown): void;
}

/**
 * The same world, but every actuator command reports when it starts and
 * settles: the executor's view of action, whatever runs the capability.
 */
export function instrumentWorld(world: WorldPort, listener: ActuatorListener): WorldPort {
  return wrapActuators(world, async ({ command }, act) => {
    listener.started(command);
    try {
      await act();
    } catch (error) {
      listener.settled(command, error);
      throw error;
    }
    listener.settled(command);
  });
}
