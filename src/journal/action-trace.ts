import type { Vec3Like, WorldPort } from '../contracts/world.js';
import { wrapActuators } from '../world/wrap-actuators.js';

/** Where a traced world reports each actuator command; the journal recorder is one. */
export interface ActionSink {
  /** Returns a handle passed back when the command settles. */
  actionStarted(command: string, args: unknown, touches?: Vec3Like): number | null;
  actionSettled(handle: number | null, error?: string): void;
}

/**
 * The same world, with every actuator command (and the block it touches)
 * reported to the sink: the provenance chain's action trace. Attached from
 * outside the executor, like any other world wrapper.
 */
export function traceActions(world: WorldPort, sink: ActionSink): WorldPort {
  return wrapActuators(world, async ({ command, args, touches }, act) => {
    const handle = sink.actionStarted(command, args, touches);
    try {
      await act();
      sink.actionSettled(handle);
    } catch (error) {
      sink.actionSettled(handle, error instanceof Error ? error.message : String(error));
      throw error;
    }
  });
}
