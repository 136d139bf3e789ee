/**
 * player_info (the tab list) as minecraft-protocol parses and writes it, in both of its shapes: before 1.19.3 one
 * action by name (`'update_latency'`), from 1.19.3 on a set of flags (`{ update_latency: true }`, with the bitfield's
 * number under `_value` once parsed). The embedded server writes it and a bot reads it.
 */
export interface PlayerInfo {
  action: string | Record<string, boolean | number>;
  data: PlayerInfoEntry[];
}

export interface PlayerInfoEntry {
  uuid: string;
  /** The entry's latency with flags; `ping` is its name in the older shape, as flying-squid writes it. */
  latency?: number;
  ping?: number;
  displayName?: unknown;
}

/**
 * Whether a player_info packet sets latencies alone, in either shape: update_latency its one action, and no entry
 * with a display name (the one other field a latency update could carry a client would read).
 */
export function setsLatencyAlone(packet: { action?: unknown; data?: readonly Partial<PlayerInfoEntry>[] }): boolean {
  return (
    actionsOf(packet.action).join() === 'update_latency' && (packet.data ?? []).every((entry) => !entry.displayName)
  );
}

/** The actions a player_info packet's action field names: the one of the older shape, or the flags set. */
function actionsOf(action: unknown): string[] {
  if (typeof action === 'string') return [action];
  if (typeof action !== 'object' || action === null) return [];
  return Object.entries(action).flatMap(([flag, on]) => (on === true ? [flag] : []));
}
