import type { SquidPlugin, SquidServer } from '../squid-types.js';

/** One server tick (s): vanilla never moves an entity by more than a tick's worth at once. */
const MAX_STEP_S = 0.05;

interface PhysicsEntity {
  calculatePhysics?: (delta: number) => Promise<unknown>;
}

/**
 * flying-squid moves entities (a dropped item, a mob) by their velocity times
 * the real time since the previous tick, up to a whole second, and checks for
 * ground only at where that step ends. When the process is busy (50 bots in
 * one event loop) a tick comes late, a falling drop steps 10 blocks at once
 * and tunnels through the ground, then falls forever. A late tick here moves
 * entities by one tick's worth, as vanilla does when it lags.
 */
export const physicsStepPlugin: SquidPlugin = {
  server(serv: SquidServer) {
    serv.on('newEntity', (entity: PhysicsEntity) => {
      const calculate = entity.calculatePhysics;
      if (!calculate) return;
      entity.calculatePhysics = (delta: number) => calculate(Math.min(delta, MAX_STEP_S));
    });
  },
};
