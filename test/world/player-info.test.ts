import { describe, expect, it } from 'vitest';
import { setsLatencyAlone } from '../../src/world/protocol/player-info.js';

/*
 * The embedded server (which drops flying-squid's own latency updates) and a bot (which does latency
 * updates without mineflayer's n² lookup) ask one question of a player_info packet, in either of its shapes.
 */
const entry = { uuid: 'u', latency: 5 };

describe('a player_info packet that sets latencies alone', () => {
  it('is update_latency alone, by name (before 1.19.3) or as the one flag set (the parsed bitfield beside it)', () => {
    expect(setsLatencyAlone({ action: 'update_latency', data: [{ uuid: 'u', ping: 5 }] })).toBe(true);
    expect(setsLatencyAlone({ action: { update_latency: true }, data: [entry] })).toBe(true);
    expect(setsLatencyAlone({ action: { _value: 16, update_latency: true, add_player: false }, data: [entry] })).toBe(
      true,
    );
    expect(setsLatencyAlone({ action: { update_latency: true }, data: [] })).toBe(true);
  });

  it('is not any other action, nor latencies with another flag, nor an entry with a display name', () => {
    expect(setsLatencyAlone({ action: 'add_player', data: [entry] })).toBe(false);
    expect(setsLatencyAlone({ action: { add_player: true, update_latency: true }, data: [entry] })).toBe(false);
    expect(setsLatencyAlone({ action: { update_latency: false }, data: [entry] })).toBe(false);
    expect(setsLatencyAlone({ action: {}, data: [entry] })).toBe(false);
    expect(setsLatencyAlone({ action: 2, data: [entry] })).toBe(false);
    expect(setsLatencyAlone({ action: { update_latency: true }, data: [{ ...entry, displayName: 'Ann' }] })).toBe(
      false,
    );
    expect(setsLatencyAlone({ action: 'update_latency', data: [{ ...entry, displayName: 'Ann' }] })).toBe(false);
  });
});
