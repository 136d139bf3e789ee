/** A compiled protodef protocol, as minecraft-protocol caches one per state, direction and version. */
interface CompiledProtocol {
  sizeOf(value: unknown, type: string): number;
  write(value: unknown, buffer: Buffer, offset: number, type: string): number;
  createPacketBuffer(type: string, packet: unknown): Buffer;
}

const zeroed = new WeakSet<CompiledProtocol>();

/**
 * Makes the protocol behind `serializer` build each packet in zeroed memory. protodef allocates a packet's buffer
 * uninitialized (`Buffer.allocUnsafe`), and minecraft-protocol's `registryEntryHolder` writer counts the 0 that marks
 * an inline entry without writing it (`offset += 1`): a sound sent by name (every placement's) left that byte as
 * whatever the memory held, so a client read a random sound id and the rest of the packet as garbage. The protocol is
 * shared by every connection of the process (minecraft-protocol caches it), so this mends them all.
 */
export function zeroFillPackets(serializer: { proto: CompiledProtocol }): void {
  const proto = serializer.proto;
  if (zeroed.has(proto)) return;
  zeroed.add(proto);
  proto.createPacketBuffer = (type, packet) => {
    const buffer = Buffer.alloc(proto.sizeOf(packet, type));
    proto.write(packet, buffer, 0, type);
    return buffer;
  };
}
