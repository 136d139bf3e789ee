import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { zeroFillPackets } from '../../src/world/embedded/zeroed-packets.js';

const require = createRequire(import.meta.url);
const { createSerializer, createDeserializer } = require('minecraft-protocol/src/transforms/serializer') as {
  createSerializer: (options: object) => { proto: never; createPacketBuffer(packet: object): Buffer };
  createDeserializer: (options: object) => { parsePacketBuffer(buffer: Buffer): { data: { params: object } } };
};

const VERSION = '1.21.4';
/** A sound by name, as flying-squid sends each placement's: an inline sound event, marked by a 0 before it. */
const SOUND = {
  name: 'sound_effect',
  params: {
    sound: { data: { soundName: 'dig.stone' } },
    soundCategory: 0,
    x: 8,
    y: 40,
    z: 8,
    volume: 1,
    pitch: 50,
    seed: 0,
  },
};

/** Leaves Node's shared pool of small buffers full of 0xff, as earlier packets and reads leave it. */
function dirtyThePool(): void {
  for (let i = 0; i < 2000; i++) Buffer.allocUnsafe(64).fill(0xff);
}

describe('zeroed packets', () => {
  it('a sound sent by name reaches the client as sent, whatever the memory held', () => {
    const serializer = createSerializer({ state: 'play', isServer: true, version: VERSION });
    zeroFillPackets(serializer);
    const client = createDeserializer({ state: 'play', isServer: false, version: VERSION });
    for (let i = 0; i < 20; i++) {
      dirtyThePool();
      const parsed = client.parsePacketBuffer(serializer.createPacketBuffer(SOUND)).data.params;
      expect(parsed).toMatchObject({ ...SOUND.params, soundCategory: 'master', seed: [0, 0] });
    }
  });
});
