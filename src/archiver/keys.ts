// Big-endian integer keys of the archiver's stores: bytewise key order is then numeric order,
// which range scans rely on.

export function u32Key(n: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(n, 0);
  return b;
}

export function u64Key(n: bigint): Buffer {
  const b = Buffer.allocUnsafe(8);
  b.writeBigUInt64BE(n, 0);
  return b;
}
