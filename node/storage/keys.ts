// Key layout of the LevelDB store. A prefix byte separates record families; log entries are
// keyed by their index in big-endian so that byte order equals index order.

export const ENTRY_PREFIX = 0x01;
const HARD_STATE_PREFIX = 0x02;
const SNAPSHOT_META_PREFIX = 0x03;
const IDENTITY_PREFIX = 0x05;

export const HARD_STATE_KEY = Uint8Array.of(HARD_STATE_PREFIX);
export const SNAPSHOT_META_KEY = Uint8Array.of(SNAPSHOT_META_PREFIX);
export const IDENTITY_KEY = Uint8Array.of(IDENTITY_PREFIX);

/** Lower (inclusive) and upper (exclusive) bounds of all entry keys, for range scans. */
export const ENTRY_RANGE_START = Uint8Array.of(ENTRY_PREFIX);
export const ENTRY_RANGE_END = Uint8Array.of(ENTRY_PREFIX + 1);

const ENTRY_KEY_LENGTH = 9;

export function entryKey(index: number): Uint8Array {
  const key = new Uint8Array(ENTRY_KEY_LENGTH);
  key[0] = ENTRY_PREFIX;
  // Big-endian uint64 without a bigint: an index stays below 2^53.
  const view = new DataView(key.buffer);
  view.setUint32(1, Math.floor(index / 2 ** 32));
  view.setUint32(5, index >>> 0);
  return key;
}

/** The index an entry key names, or null if the key is not a well-formed entry key. */
export function entryIndexOf(key: Uint8Array): number | null {
  if (key.length !== ENTRY_KEY_LENGTH || key[0] !== ENTRY_PREFIX) return null;
  const index = new DataView(key.buffer, key.byteOffset, key.byteLength).getBigUint64(1);
  return index <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(index) : null;
}

/** Printable form of a key for error messages. */
export function describeKey(key: Uint8Array): string {
  const index = entryIndexOf(key);
  if (index !== null) return `entry ${index}`;
  if (key.length === 1 && key[0] === HARD_STATE_PREFIX) return "hard state record";
  if (key.length === 1 && key[0] === SNAPSHOT_META_PREFIX) return "snapshot metadata record";
  if (key.length === 1 && key[0] === IDENTITY_PREFIX) return "identity record";
  return `key 0x${Array.from(key, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
